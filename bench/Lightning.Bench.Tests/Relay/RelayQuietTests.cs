using Lightning.Bench.Processes;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>
/// The wait for quiet nodes made on the agent's host, on real containers' cgroups read by the agent through the host's
/// /proc: a busy container is never quiet, an idle one is, and a node it cannot read is an error that names it. The
/// busy container is watched over 150 ms windows, up to ten waits of a second: on a loaded machine it can get no CPU at
/// all for a while, which the wait rightly calls quiet, so the test reads its CPU time itself during each wait and
/// accepts a quiet verdict only if it too saw a whole window with (almost) none; a wait that calls a working container
/// quiet still fails.
/// </summary>
[Trait("Category", "Docker")]
[Collection(QuietMachineCollection.Name)]
public sealed class RelayQuietTests : IDisposable
{
    private readonly RelayHarness harness = new();

    [SkippableFact]
    public async Task The_agent_waits_on_its_host_busy_is_never_quiet_idle_is_and_a_node_it_cannot_read_is_named()
    {
        await using var containers = await ScriptContainers.OpenAsync();
        var engine = containers.Engine;
        var busy = await containers.StartAsync("busy", ScriptContainers.Busy);
        var idle = await containers.StartAsync("idle", "sleep 600");
        var busyPid = (await engine.InspectContainerAsync(busy))!.Pid;
        var idlePid = (await engine.InspectContainerAsync(idle))!.Pid;
        await using var agent = harness.StartAgent();
        await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        await client.ConnectedAsync(RelayHarness.Patience);
        var costs = await client.ReadCostsAsync([new CostTarget("busy", (int)busyPid)], RelayHarness.Patience);
        Skip.If(costs[0].Problem.Length > 0, $"cgroup CPU time is not readable here: {costs[0].Problem}");
        await RelayHarness.Until(
            "the busy container to use 100 ms of CPU",
            () =>
                client
                    .ReadCostsAsync([new CostTarget("busy", (int)busyPid)], RelayHarness.Patience)
                    .GetAwaiter()
                    .GetResult()[0]
                    .CpuNanoseconds > 100_000_000,
            () => "less"
        );

        // The test reads the busy container's CPU time itself, every millisecond, while the agent waits: a quiet verdict
        // is right only if, between the request and the answer, there was a whole window in which it got (almost) no CPU.
        var (cgroups, _) = ProcessCgroups.Of((int)busyPid);
        var file = CgroupCpu.UsageFileOf(cgroups!).File!;
        var window = Lightning.Bench.Instructions.CaseInstructions.SettleQuiet;
        var share = Lightning.Bench.Instructions.CaseInstructions.SettleBusyShare;
        var verdicts = new List<string>();
        for (var attempt = 0; attempt < 10; attempt++)
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var readings = new System.Collections.Concurrent.ConcurrentQueue<(
                TimeSpan Before,
                TimeSpan After,
                long Ns
            )>();
            using var stop = new CancellationTokenSource();
            var sampler = Task.Run(async () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    var before = clock.Elapsed;
                    var ns = CgroupCpu.ReadNanoseconds(file);
                    readings.Enqueue((before, clock.Elapsed, ns));
                    await Task.Delay(1);
                }
            });
            var (waited, quiet) = await client.WaitQuietAsync(
                [new CostTarget("busy", (int)busyPid)],
                window,
                share,
                TimeSpan.FromSeconds(1),
                Lightning.Bench.Cases.TimedSettle.Poll,
                0,
                RelayHarness.Patience
            );
            await stop.CancelAsync();
            await sampler;
            if (!quiet)
            {
                Assert.True(waited >= TimeSpan.FromSeconds(1), $"gave up after {waited}");
                verdicts.Add($"busy for {waited.TotalMilliseconds:0} ms");
                break;
            }
            // Two readings a whole window apart for certain, with less CPU between them than the allowance over the
            // longest time they can be apart: the agent saw the container starved, and quiet is what that is.
            var taken = readings.ToList();
            var starved = taken
                .SelectMany(
                    (from, i) =>
                        taken
                            .Skip(i + 1)
                            .Where(to => to.Before - from.After >= window)
                            .Take(1)
                            .Select(to => (to.Ns - from.Ns) < share * 1e9 * (to.After - from.Before).TotalSeconds)
                )
                .Any(s => s);
            Assert.True(
                starved,
                $"the agent called the busy container quiet after {waited.TotalMilliseconds:0} ms, though it used CPU in every window the test read ({taken.Count} readings)"
            );
            verdicts.Add($"quiet after {waited.TotalMilliseconds:0} ms, starved");
        }
        Assert.NotEmpty(verdicts);
        Assert.True(
            (
                await client.WaitQuietAsync(
                    [new CostTarget("idle", (int)idlePid)],
                    Lightning.Bench.Cases.TimedSettle.Quiet,
                    Lightning.Bench.Cases.TimedSettle.BusyShare,
                    TimeSpan.FromSeconds(30),
                    Lightning.Bench.Cases.TimedSettle.Poll,
                    0,
                    RelayHarness.Patience
                )
            ).Quiet
        );

        var e = await Assert.ThrowsAsync<IOException>(() =>
            client.WaitQuietAsync(
                [new CostTarget("idle", (int)idlePid), new CostTarget("gone", int.MaxValue - 1)],
                Lightning.Bench.Cases.TimedSettle.Quiet,
                0.1,
                TimeSpan.FromSeconds(1),
                Lightning.Bench.Cases.TimedSettle.Poll,
                0,
                RelayHarness.Patience
            )
        );
        Assert.Contains("gone:", e.Message);
    }

    public void Dispose() => harness.Dispose();
}
