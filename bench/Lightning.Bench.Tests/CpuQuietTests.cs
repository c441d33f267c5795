using Lightning.Bench.Network;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests;

/// <summary>
/// --instructions waits for the nodes to fall quiet before each measured payment (<see cref="CpuMeter.WaitQuietAsync"/>),
/// reading real containers' cgroups: a container that never stops working is never called quiet, one that stops is
/// called quiet only once it has stopped, and an idle one at once.
/// </summary>
[Trait("Category", "Docker")]
[Collection(QuietMachineCollection.Name)]
public class CpuQuietTests
{
    private static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(150);

    [SkippableFact]
    public Task A_busy_container_is_never_quiet_and_one_that_stops_working_is_quiet_only_after() =>
        BusyIdleStoppingAsync(Quiet, 0.05, null);

    // A timed case's wait before each invocation: a window of 10 ms read every millisecond (Run.TimedSettle).
    [SkippableFact]
    public Task The_timed_settle_tells_busy_from_quiet_as_well() =>
        BusyIdleStoppingAsync(Lightning.Bench.Run.TimedSettle.Quiet, Lightning.Bench.Run.TimedSettle.BusyShare, Lightning.Bench.Run.TimedSettle.Poll);

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
        await Lightning.Bench.Waiting.Wait.UntilAsync("the busy container to use 100 ms of CPU", _ =>
            Task.FromResult(busyMeter.Read().Values.Sum() > 100_000_000
                ? Lightning.Bench.Waiting.WaitState.Met()
                : Lightning.Bench.Waiting.WaitState.NotYet($"{busyMeter.Read().Values.Sum() / 1e6:0} ms")), TimeSpan.FromSeconds(30));
        var (waited, quiet) = await busyMeter.WaitQuietAsync(null, quietFor, busyShare, TimeSpan.FromSeconds(1), poll: poll);
        Assert.False(quiet);
        Assert.True(waited >= TimeSpan.FromSeconds(1), $"gave up after {waited}");

        var idleMeter = await CpuMeter.CreateAsync(engine, new Dictionary<string, string> { ["idle"] = idle });
        Assert.True((await idleMeter.WaitQuietAsync(null, quietFor, busyShare, TimeSpan.FromSeconds(30), poll: poll)).Quiet);

        // Alone (a container starved by the busy one's loops would use little CPU, and that is what quiet means).
        await engine.RemoveContainerAsync(busy);
        // Works for a while (how long depends on the machine), then leaves a mark and sleeps.
        var stops = await containers.StartAsync("stops", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; touch /tmp/done; sleep 600");
        var stopsMeter = await CpuMeter.CreateAsync(engine, new Dictionary<string, string> { ["stops"] = stops });
        Assert.True((await stopsMeter.WaitQuietAsync(null, quietFor, busyShare, TimeSpan.FromMinutes(5), poll: poll)).Quiet);
        var done = await engine.ExecAsync(stops, ["sh", "-c", "[ -e /tmp/done ]"], null, TimeSpan.FromSeconds(30));
        Assert.Equal(0, done.ExitCode);
    }
}
