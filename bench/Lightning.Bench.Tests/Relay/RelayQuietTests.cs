using Lightning.Bench.Relay;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests.Relay;

/// <summary>
/// The wait for quiet nodes made on the agent's host, on real containers' cgroups read by the agent through the host's
/// /proc: a busy container is never quiet, an idle one is, and a node it cannot read is an error that names it. The
/// busy container is watched over 150 ms windows, up to ten waits of a second: on a loaded machine it can get no CPU at
/// all for a while, which the wait rightly calls quiet (<see cref="CpuQuietTests"/> checks each such verdict against the
/// readings; here they are the agent's), and a wait that calls a working container quiet every time still fails.
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
        await RelayHarness.Until("the busy container to use 100 ms of CPU", () =>
            client.ReadCostsAsync([new CostTarget("busy", (int)busyPid)], RelayHarness.Patience).GetAwaiter().GetResult()[0].CpuNanoseconds > 100_000_000, () => "less");

        var verdicts = new List<string>();
        for (var attempt = 0; attempt < 10; attempt++)
        {
            var (waited, quiet) = await client.WaitQuietAsync([new CostTarget("busy", (int)busyPid)], Lightning.Bench.Instructions.CaseInstructions.SettleQuiet,
                Lightning.Bench.Instructions.CaseInstructions.SettleBusyShare, TimeSpan.FromSeconds(1), Lightning.Bench.Run.TimedSettle.Poll, 0, RelayHarness.Patience);
            verdicts.Add(quiet ? $"quiet after {waited.TotalMilliseconds:0} ms" : $"busy for {waited.TotalMilliseconds:0} ms");
            if (!quiet)
            {
                Assert.True(waited >= TimeSpan.FromSeconds(1), $"gave up after {waited}");
                break;
            }
        }
        Assert.True(verdicts[^1].StartsWith("busy", StringComparison.Ordinal), $"the busy container was called quiet in every wait: {string.Join("; ", verdicts)}");

        Assert.True((await client.WaitQuietAsync([new CostTarget("idle", (int)idlePid)], Lightning.Bench.Run.TimedSettle.Quiet,
            Lightning.Bench.Run.TimedSettle.BusyShare, TimeSpan.FromSeconds(30), Lightning.Bench.Run.TimedSettle.Poll, 0, RelayHarness.Patience)).Quiet);

        var e = await Assert.ThrowsAsync<IOException>(() => client.WaitQuietAsync([new CostTarget("idle", (int)idlePid), new CostTarget("gone", int.MaxValue - 1)],
            Lightning.Bench.Run.TimedSettle.Quiet, 0.1, TimeSpan.FromSeconds(1), Lightning.Bench.Run.TimedSettle.Poll, 0, RelayHarness.Patience));
        Assert.Contains("gone:", e.Message);
    }

    public void Dispose() => harness.Dispose();
}
