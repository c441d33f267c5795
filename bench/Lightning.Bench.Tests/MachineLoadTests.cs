using Lightning.Bench.Processes;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>
/// The machine's load while a run measures: /proc's files as this machine writes them, and the busy decision on the
/// samples of real runs (bench/Lightning.Bench.Tests/MachineLoad/: machine-load.csv of a run beside a two-thread CPU
/// hog, of one beside the other tenants of this project's shared 2-core machine, and of the same run on the machine
/// when it was quiet).
/// </summary>
[Trait("Category", "Unit")]
public class MachineLoadTests
{
    private static IReadOnlyList<MachineLoadSample> Recorded(string name) =>
        MachineLoadCsv.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "MachineLoad", name)));

    [Fact]
    public void Runs_beside_a_cpu_hog_and_beside_busy_neighbours_are_busy_and_the_runs_own_work_never_makes_one()
    {
        var hog = MachineLoad.Of(Recorded("hog.csv"), cpus: 2)!;
        var neighbours = MachineLoad.Of(Recorded("neighbours.csv"), cpus: 2)!;

        Assert.True(hog.Busy, hog.Description);
        Assert.StartsWith(
            $"other work took {hog.OtherCpuPercent:0} % of the machine's CPU while this run measured (more than 25 %)",
            hog.BusyNote
        );
        Assert.True(neighbours.Busy, neighbours.Description);
        Assert.InRange(hog.OtherCpuPercent, MachineLoad.DefaultBusyThresholdPercent * 2, 100);
        // The same seconds with the other work taken away (the machine idle instead): what is left, the run's
        // containers and the harness, never makes a run busy, however much of the CPU it takes.
        foreach (var recorded in new[] { Recorded("hog.csv"), Recorded("neighbours.csv") })
        {
            var alone = recorded
                .Select(s => s with { BusyCpuSeconds = s.RunCpuSeconds + s.HarnessCpuSeconds })
                .ToList();
            var quiet = MachineLoad.Of(alone, cpus: 2)!;
            Assert.False(quiet.Busy, quiet.Description);
            Assert.Null(quiet.BusyNote);
            Assert.Equal(0, quiet.OtherCpuPercent, 9);
        }
    }

    [Fact]
    public void A_run_on_the_quiet_machine_is_not_busy_and_the_threshold_stands_well_apart_from_quiet_and_busy()
    {
        // The same run as the busy ones (v26.06.6, Concurrency=1, 2 topologies of 40 payments) with nothing else on
        // the machine: what is left outside the run's containers and the harness is the engine, the shims and the
        // kernel's share of the run's networking.
        var quiet = MachineLoad.Of(Recorded("quiet.csv"), cpus: 2)!;
        var busy = new[] { "hog.csv", "neighbours.csv" }.Select(f => MachineLoad.Of(Recorded(f), cpus: 2)!).ToList();

        Assert.False(quiet.Busy, quiet.Description);
        Assert.Null(quiet.BusyNote);
        Assert.InRange(quiet.OtherCpuPercent, 0.5, 10);
        // The threshold is several times the quiet run's other work and a fraction of the busy runs' least.
        Assert.True(MachineLoad.DefaultBusyThresholdPercent >= 5 * quiet.OtherCpuPercent, quiet.Description);
        Assert.True(MachineLoad.DefaultBusyThresholdPercent * 3 <= busy.Min(b => b.OtherCpuPercent));
    }

    [Fact]
    public void Other_work_is_the_busy_cpu_neither_the_runs_containers_nor_the_harness_took_as_a_share_of_all_cpus()
    {
        // Two seconds on 2 CPUs: 4 CPU-seconds; 3 busy, of which the run's containers took 1.5 and the harness 0.5.
        var samples = new[]
        {
            new MachineLoadSample(1, 2, 1.5, 1.0, 0.25, 1.5, 0.0, 20_000, 2_600),
            new MachineLoadSample(2, 2, 1.5, 0.5, 0.25, 2.5, 1.5, 19_000, 2_400),
            // The harness's waited-for children land in one reading: other work is never below 0.
            new MachineLoadSample(3, 2, 0.2, 0.1, 0.5, 2.0, null, null, null),
        };

        var load = MachineLoad.Of(samples, cpus: 2, thresholdPercent: 20)!;

        Assert.Equal(0, samples[2].OtherCpuSeconds);
        Assert.Equal(100 * (0.25 + 0.75) / 6, load.OtherCpuPercent, 9);
        Assert.Equal(100 * 0.75 / 2, load.OtherCpuPercentMax, 9);
        Assert.Equal(100 * 1.6 / 6, load.RunCpuPercent, 9);
        Assert.Equal((3.0, 3), (load.Seconds, load.Samples));
        Assert.Equal(
            (2.0, 2.5, 1.5, 19_000.0, 2_500.0),
            (
                load.LoadAverageMean,
                load.LoadAverageMax,
                load.MemoryPressureMax!.Value,
                load.MemAvailableMbMin!.Value,
                load.CpuMhzMean!.Value
            )
        );
        Assert.False(load.Busy);
        Assert.True(MachineLoad.Of(samples, cpus: 2, thresholdPercent: 16)!.Busy);
        Assert.False(MachineLoad.IsBusy(25, 25));
        Assert.True(MachineLoad.IsBusy(25.1, 25));
        Assert.Null(MachineLoad.Of([], 2));
        // machine-load.csv gives the samples back.
        Assert.Equal(samples, MachineLoadCsv.Parse(MachineLoadCsv.Format(samples)));
    }

    [Fact]
    public void Proc_files_are_read_as_this_machine_writes_them()
    {
        // Captured on this project's machine (Linux 6.x, 2 CPUs).
        var (total, busy) = HostReading.ParseStat(
            "cpu  1434488 33370 384451 556173 25178 0 7506 3334 0 0\ncpu0 711185 15694 183576 299020 9087 0 1554 1645 0 0\n"
        );
        Assert.Equal(2_444_500 / 100.0, total, 6);
        Assert.Equal((2_444_500 - 556_173 - 25_178) / 100.0, busy, 6);
        Assert.Equal(13.75, HostReading.ParseLoadAverage("13.75 12.35 7.79 6/239 1512\n"));
        Assert.Equal(
            2.5,
            HostReading.ParsePressure(
                "some avg10=2.50 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
            )
        );
        Assert.Null(HostReading.ParsePressure(null));
        Assert.Equal(
            23_171_672 / 1024.0,
            HostReading.ParseMemAvailableMb(
                "MemTotal:       24684096 kB\nMemFree:        15672468 kB\nMemAvailable:   23171672 kB\n"
            )
        );
        Assert.Equal(2596.148, HostReading.ParseCpuinfoMhz("cpu MHz\t\t: 2596.148\ncpu MHz\t\t: 2596.148\n"));
        // utime, stime, cutime, cstime: fields 14–17, after a command with a space and a parenthesis in it.
        Assert.Equal(
            (120 + 30 + 7 + 3) / 100.0,
            HostReading.ParseOwnCpuSeconds(
                "6122 (a (b) c) R 6118 6118 13608 0 -1 4194304 100 0 0 0 120 30 7 3 20 0 1 0 1232961 3133440 390"
            )
        );
        Assert.NotNull(HostReading.Read());
        // The manifest's machine reads the same "name : value" lines (the model, the memory) from the real files.
        Assert.Equal(
            ["a b", "c"],
            ProcFields.Values("model name\t: a b\nflags\t: x\nmodel name : c\nmodel\n", "model name")
        );
        Assert.False(string.IsNullOrEmpty(ProcFields.First("/proc/meminfo", "MemTotal")));
        Assert.Null(ProcFields.First("/proc/meminfo", "NoSuchField"));
    }
}
