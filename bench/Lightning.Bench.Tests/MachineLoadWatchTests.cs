using System.Diagnostics;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Network;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests;

/// <summary>
/// The machine sampled while a run measures, on a real engine and real processes: the run's container's CPU time is
/// the run's (as its process's own /proc figures say), a CPU hog the test starts beside it is other work, and the run
/// is called busy. Asserted against what the container and the hog themselves used, whatever else the machine runs.
/// </summary>
[Trait("Category", "Docker")]
public class MachineLoadWatchTests
{
    [SkippableFact]
    public async Task A_hog_beside_the_run_is_other_work_and_the_runs_container_is_the_runs()
    {
        await using var containers = await ScriptContainers.OpenAsync();
        // The run's own work: one busy loop in a container labelled with the test's run.
        var own = await containers.StartAsync("own", "while :; do :; done");
        var ownPid = (await containers.Engine.InspectContainerAsync(own))!.Pid;
        // Other work: two busy loops on the host (bash's builtins only, so each is one process), each ending after 60 s
        // whatever happens to the test.
        var hogs = Enumerable
            .Range(0, 2)
            .Select(_ => Process.Start(new ProcessStartInfo("bash", ["-c", "while [ $SECONDS -lt 60 ]; do :; done"]))!)
            .ToList();
        try
        {
            await Task.Delay(300);
            var watch = await MachineLoadWatch.StartAsync(
                containers.Engine,
                $"{RunLabels.Run}={containers.RunId}",
                TimeSpan.FromMilliseconds(500)
            );
            var (hogStart, ownStart) = (hogs.Sum(h => CpuSeconds(h.Id)), CpuSeconds(ownPid));
            await Task.Delay(TimeSpan.FromSeconds(6));
            await watch.StopAsync();
            var (hog, ownUsed) = (hogs.Sum(h => CpuSeconds(h.Id)) - hogStart, CpuSeconds(ownPid) - ownStart);
            var samples = watch.Samples;
            var load = watch.Record()!;

            Assert.InRange(samples.Count, 8, 14);
            Assert.Null(load.Problem);
            // The container's cgroup holds its one process: what the watch counted as the run's is what that process used.
            Assert.InRange(samples.Sum(s => s.RunCpuSeconds), ownUsed - 0.25, ownUsed + 0.25);
            Assert.True(ownUsed > 0.5, $"the run's container used {ownUsed:0.00} s of CPU in 6 s");
            // The hog is neither the run's nor the harness's: all of it is in other work (with whatever else ran).
            Assert.True(
                samples.Sum(s => s.OtherCpuSeconds) >= hog - 0.25,
                $"other work {samples.Sum(s => s.OtherCpuSeconds):0.00} s, the hog {hog:0.00} s"
            );
            Assert.True(load.Busy, load.Description);
            Assert.True(load.OtherCpuPercent >= 100 * hog / (6 * Environment.ProcessorCount) - 5, load.Description);
        }
        finally
        {
            foreach (var h in hogs)
            {
                h.Kill();
                h.Dispose();
            }
        }
    }

    /// <summary>A process's own CPU time (utime + stime), from /proc/PID/stat.</summary>
    private static double CpuSeconds(int pid)
    {
        var text = File.ReadAllText($"/proc/{pid}/stat");
        var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
        return (long.Parse(fields[11]) + long.Parse(fields[12])) / HostReading.TicksPerSecond;
    }
}
