using System.Diagnostics;
using Lightning.Bench.Network;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Tests;

/// <summary>
/// The harness waits for the nodes to fall quiet (<see cref="CpuMeter.WaitQuietAsync"/>): before each measured payment
/// of --instructions (150 ms windows) and before each timed invocation (10 ms windows), reading real containers'
/// cgroups: a container that keeps working is not called quiet, one that stops is called quiet only once it has
/// stopped, and an idle one at once. On a loaded machine a container can get no CPU at all for 10 ms (measured here
/// with two other processes spinning: 8 % of 10 ms windows), which is what quiet means: there the test accepts a
/// verdict of quiet only for a window in which the container's CPU time did not advance beyond the allowance, so it
/// holds on a busy machine and still catches a wait that calls a working container quiet.
/// </summary>
[Trait("Category", "Docker")]
[Collection(QuietMachineCollection.Name)]
public class CpuQuietTests
{
    private static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(150);

    /// <summary>Waits tried before the test gives up on seeing the verdict it expects (each may meet a starved window).</summary>
    private const int Attempts = 10;

    [SkippableFact]
    public Task A_busy_container_is_never_quiet_and_one_that_stops_working_is_quiet_only_after() =>
        BusyIdleStoppingAsync(Quiet, 0.05, null);

    // A timed case's wait before each invocation: a window of 10 ms read every millisecond (Run.TimedSettle).
    [SkippableFact]
    public Task The_timed_settle_tells_busy_from_quiet_as_well() =>
        BusyIdleStoppingAsync(
            Lightning.Bench.Cases.TimedSettle.Quiet,
            Lightning.Bench.Cases.TimedSettle.BusyShare,
            Lightning.Bench.Cases.TimedSettle.Poll
        );

    private static async Task BusyIdleStoppingAsync(TimeSpan quietFor, double busyShare, TimeSpan? poll)
    {
        await using var containers = await ScriptContainers.OpenAsync();
        var engine = containers.Engine;
        // Nothing else of the test spins while the busy one is watched.
        var busy = await containers.StartAsync("busy", ScriptContainers.Busy);
        var idle = await containers.StartAsync("idle", "sleep 600");

        var busyMeter = await CpuMeter.CreateAsync(engine, new Dictionary<string, string> { ["busy"] = busy });
        Skip.If(busyMeter.Problem is not null, $"cgroup CPU time is not readable here: {busyMeter.Problem}");
        // Its loops have begun (a container's process may start later than its start call returns on a loaded machine).
        await Lightning.Bench.Waiting.Wait.UntilAsync(
            "the busy container to use 100 ms of CPU",
            _ =>
                Task.FromResult(
                    busyMeter.Read().Values.Sum() > 100_000_000
                        ? Lightning.Bench.Waiting.WaitState.Met()
                        : Lightning.Bench.Waiting.WaitState.NotYet($"{busyMeter.Read().Values.Sum() / 1e6:0} ms")
                ),
            TimeSpan.FromSeconds(30)
        );
        // Never quiet for a whole second, unless every quiet it called was a window in which the container got no CPU.
        var starved = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var wait = await RecordedWaitAsync(busyMeter, quietFor, busyShare, TimeSpan.FromSeconds(1), poll);
            if (!wait.Quiet)
            {
                Assert.True(wait.Waited >= TimeSpan.FromSeconds(1), $"gave up after {wait.Waited}");
                break;
            }
            starved.Add(wait.AssertStarved(quietFor, busyShare));
            if (attempt == Attempts)
            {
                // A container that got no CPU in a window of every one of its waits: the verdicts were right each time.
                break;
            }
        }
        // It was busy: over its waits it used CPU (a wait that says quiet for a container that never runs proves nothing).
        Assert.True(
            busyMeter.Read().Values.Sum() > 200_000_000,
            $"the busy container hardly ran: {string.Join("; ", starved)}"
        );

        var idleMeter = await CpuMeter.CreateAsync(engine, new Dictionary<string, string> { ["idle"] = idle });
        Assert.True(
            (await idleMeter.WaitQuietAsync(null, quietFor, busyShare, TimeSpan.FromSeconds(30), poll: poll)).Quiet
        );

        // Alone (a container starved by the busy one's loops would use little CPU, and that is what quiet means).
        await engine.RemoveContainerAsync(busy);
        // Works for a while (how long depends on the machine), then leaves a mark and sleeps.
        var stops = await containers.StartAsync(
            "stops",
            "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; touch /tmp/done; sleep 600"
        );
        var stopsMeter = await CpuMeter.CreateAsync(engine, new Dictionary<string, string> { ["stops"] = stops });
        for (var attempt = 1; ; attempt++)
        {
            var wait = await RecordedWaitAsync(stopsMeter, quietFor, busyShare, TimeSpan.FromMinutes(5), poll);
            Assert.True(wait.Quiet, $"not quiet within {wait.Waited}");
            if (
                (
                    await engine.ExecAsync(stops, ["sh", "-c", "[ -e /tmp/done ]"], null, TimeSpan.FromSeconds(30))
                ).ExitCode == 0
            )
            {
                break;
            }
            // Quiet before it stopped: only a window in which it was starved may say so.
            wait.AssertStarved(quietFor, busyShare);
            Assert.True(attempt < Attempts, $"called quiet {Attempts} times before the container stopped working");
        }
    }

    /// <summary>The wait, over the meter's readings, each recorded with the clock before and after it.</summary>
    private static async Task<RecordedWait> RecordedWaitAsync(
        CpuMeter meter,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        TimeSpan? poll
    )
    {
        var clock = Stopwatch.StartNew();
        var readings = new List<(TimeSpan Before, TimeSpan After, long Ns)>();
        var (waited, isQuiet) = await QuietWait.UntilQuietAsync(
            () =>
            {
                var before = clock.Elapsed;
                var ns = meter.Read() is { Count: > 0 } now ? now.Values.Sum() : (long?)null;
                if (ns is { } value)
                {
                    readings.Add((before, clock.Elapsed, value));
                }
                return ns;
            },
            0,
            quiet,
            busyShare,
            limit,
            poll ?? TimeSpan.FromMilliseconds(20)
        );
        return new RecordedWait(waited, isQuiet, readings);
    }

    private sealed record RecordedWait(
        TimeSpan Waited,
        bool Quiet,
        IReadOnlyList<(TimeSpan Before, TimeSpan After, long Ns)> Readings
    )
    {
        /// <summary>
        /// The verdict's window, the last readings at least <paramref name="quiet"/> apart: the container's CPU time
        /// advanced by less than the allowance there. Returns the window, for the message if the container hardly ran.
        /// </summary>
        public string AssertStarved(TimeSpan quiet, double busyShare)
        {
            var to = Readings[^1];
            var from = Readings.Last(r => to.Before - r.After >= quiet);
            var window = to.Before - from.After;
            var used = to.Ns - from.Ns;
            Assert.True(
                used < busyShare * 1e9 * window.TotalSeconds,
                $"called quiet while the container used {used / 1e6:0.000} ms of CPU in {window.TotalMilliseconds:0.0} ms"
            );
            return $"{used / 1e6:0.000} ms in {window.TotalMilliseconds:0.0} ms";
        }
    }
}
