using System.Globalization;

namespace Lightning.Bench.Results;

/// <summary>
/// One interval between two readings of the machine while a run measured: how much CPU the machine had and used, and
/// whose it was (the run's containers, the harness, or other work), with its load average, memory pressure and clock.
/// </summary>
/// <param name="AtSeconds">The interval's end, seconds after the run began measuring.</param>
/// <param name="CapacityCpuSeconds">All CPUs' time in the interval, idle included (/proc/stat).</param>
/// <param name="BusyCpuSeconds">What of it was not idle (nor waiting for I/O); time the hypervisor stole is counted busy, as other work.</param>
/// <param name="RunCpuSeconds">The run's containers' CPU time (their cgroups).</param>
/// <param name="HarnessCpuSeconds">The harness process's CPU time, and that of the tools it ran and waited for.</param>
/// <param name="LoadAverage">The 1-minute load average at the interval's end.</param>
/// <param name="MemoryPressure">/proc/pressure/memory's "some avg10" (% of time some task waited for memory), null where unreadable.</param>
/// <param name="MemAvailableMb">/proc/meminfo's MemAvailable, MB.</param>
/// <param name="CpuMhz">The CPUs' mean clock (cpufreq's scaling_cur_freq, else /proc/cpuinfo's "cpu MHz"), null where unreadable.</param>
internal sealed record MachineLoadSample(
    double AtSeconds,
    double CapacityCpuSeconds,
    double BusyCpuSeconds,
    double RunCpuSeconds,
    double HarnessCpuSeconds,
    double LoadAverage,
    double? MemoryPressure,
    double? MemAvailableMb,
    double? CpuMhz
)
{
    /// <summary>CPU time neither the run's containers nor the harness took: other work on the machine (never below 0).</summary>
    public double OtherCpuSeconds => Math.Max(0, BusyCpuSeconds - RunCpuSeconds - HarnessCpuSeconds);
}

/// <summary>
/// The machine while a run measured, from its samples (<see cref="MachineLoadSample"/>, one a second): load average,
/// the CPU taken by other work than the run's (a share of all CPUs' time), memory pressure and clock; and whether the
/// machine was busy: other work took more than <see cref="BusyThresholdPercent"/> of its CPU. A busy run's times are
/// not a quiet machine's; its comparisons keep their verdicts (pairs are interleaved, so both builds shared the load).
/// </summary>
internal sealed record MachineLoad(
    double Seconds,
    int Samples,
    int Cpus,
    double LoadAverageMean,
    double LoadAverageMax,
    double OtherCpuPercent,
    double OtherCpuPercentMax,
    double RunCpuPercent,
    double HarnessCpuPercent,
    double? MemoryPressureMax,
    double? MemAvailableMbMin,
    double? CpuMhzMean,
    double BusyThresholdPercent,
    bool Busy
)
{
    /// <summary>
    /// Other work's share of the machine's CPU above which a run is called busy, in %. From measurements on this
    /// project's shared 2-core machine (docs/outputs.md#the-machine-while-a-run-measured): a run beside a two-thread CPU
    /// hog had 91 % other work, one beside the machine's other tenants 84 %, the same run on the quiet machine 3.3 % (what
    /// the run causes outside its cgroups: the engine, containerd's shims, the kernel's networking).
    /// </summary>
    public const double DefaultBusyThresholdPercent = 25;

    /// <summary>Why the run's containers' CPU could not be read (then all of it counts as other work), or null.</summary>
    public string? Problem { get; init; }

    /// <summary>The record in one line, as the console's end, the page and comparison.md say it.</summary>
    public string Description =>
        Invariant(
            $"load average {LoadAverageMean:0.0} (max {LoadAverageMax:0.0}) on {Cpus} CPUs; other work {OtherCpuPercent:0.0} % of the CPU (max {OtherCpuPercentMax:0} % in a second), the run's containers {RunCpuPercent:0.0} %, the harness {HarnessCpuPercent:0.0} %"
        )
        + (MemoryPressureMax is { } p ? Invariant($"; memory pressure {p:0.0} % at most") : "")
        + (MemAvailableMbMin is { } m ? Invariant($", {m:N0} MB available at least") : "")
        + (CpuMhzMean is { } mhz ? Invariant($"; {mhz:N0} MHz") : "")
        + Invariant($"; {Samples} samples over {Seconds:0} s");

    /// <summary>The one line a busy run ends with (null for a quiet one).</summary>
    public string? BusyNote =>
        Busy
            ? Invariant(
                $"other work took {OtherCpuPercent:0} % of the machine's CPU while this run measured (more than {BusyThresholdPercent:0} %): its times are not a quiet machine's; a comparison's verdicts stand (its pairs shared the load), a single run's figures and a history's points do not"
            )
            : null;

    /// <summary>Whether other work's share of the CPU makes a run busy: more than the threshold.</summary>
    public static bool IsBusy(double otherCpuPercent, double thresholdPercent) => otherCpuPercent > thresholdPercent;

    /// <summary>The record of <paramref name="samples"/> (null without any): shares are of all CPUs' time over them.</summary>
    public static MachineLoad? Of(
        IReadOnlyList<MachineLoadSample> samples,
        int cpus,
        double thresholdPercent = DefaultBusyThresholdPercent
    )
    {
        var capacity = samples.Sum(s => s.CapacityCpuSeconds);
        if (samples.Count == 0 || capacity <= 0)
        {
            return null;
        }
        double Percent(Func<MachineLoadSample, double> part) => 100 * samples.Sum(part) / capacity;
        var other = Percent(s => s.OtherCpuSeconds);
        var pressures = samples.Select(s => s.MemoryPressure).OfType<double>().ToList();
        var available = samples.Select(s => s.MemAvailableMb).OfType<double>().ToList();
        var clocks = samples.Select(s => s.CpuMhz).OfType<double>().ToList();
        return new MachineLoad(
            capacity / Math.Max(1, cpus),
            samples.Count,
            cpus,
            samples.Average(s => s.LoadAverage),
            samples.Max(s => s.LoadAverage),
            other,
            samples.Where(s => s.CapacityCpuSeconds > 0).Max(s => 100 * s.OtherCpuSeconds / s.CapacityCpuSeconds),
            Percent(s => s.RunCpuSeconds),
            Percent(s => s.HarnessCpuSeconds),
            pressures.Count > 0 ? pressures.Max() : null,
            available.Count > 0 ? available.Min() : null,
            clocks.Count > 0 ? clocks.Average() : null,
            thresholdPercent,
            IsBusy(other, thresholdPercent)
        );
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

/// <summary>machine-load.csv: a run's samples of the machine, one row a second, as <see cref="MachineLoadSample"/> has them.</summary>
internal static class MachineLoadCsv
{
    public const string FileName = "machine-load.csv";

    public const string Header =
        "at_s,capacity_cpu_s,busy_cpu_s,run_cpu_s,harness_cpu_s,other_cpu_s,load_average,memory_pressure_pct,mem_available_mb,cpu_mhz";

    public static string Format(IEnumerable<MachineLoadSample> samples) =>
        string.Join(
            "",
            samples
                .Select(s =>
                    string.Join(
                        ',',
                        new double?[]
                        {
                            s.AtSeconds,
                            s.CapacityCpuSeconds,
                            s.BusyCpuSeconds,
                            s.RunCpuSeconds,
                            s.HarnessCpuSeconds,
                            s.OtherCpuSeconds,
                            s.LoadAverage,
                            s.MemoryPressure,
                            s.MemAvailableMb,
                            s.CpuMhz,
                        }.Select(v => v?.ToString("0.###", CultureInfo.InvariantCulture) ?? "")
                    ) + "\n"
                )
                .Prepend(Header + "\n")
        );

    /// <summary>The samples of a machine-load.csv's text (its other_cpu_s column is derived, so not read).</summary>
    public static IReadOnlyList<MachineLoadSample> Parse(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Skip(1)
            .Select(line => line.Split(','))
            .Select(f =>
            {
                double? At(int i) =>
                    f[i].Length == 0 ? null : double.Parse(f[i], NumberStyles.Float, CultureInfo.InvariantCulture);
                return new MachineLoadSample(
                    At(0)!.Value,
                    At(1)!.Value,
                    At(2)!.Value,
                    At(3)!.Value,
                    At(4)!.Value,
                    At(6)!.Value,
                    At(7),
                    At(8),
                    At(9)
                );
            })
            .ToList();
}
