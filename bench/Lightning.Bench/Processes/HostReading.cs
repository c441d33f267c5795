using System.Diagnostics;
using System.Globalization;

namespace Lightning.Bench.Processes;

/// <summary>
/// One reading of the host the harness runs on, from /proc and /sys: all CPUs' time and what of it was busy, the load
/// average, memory pressure or what memory is available, the CPUs' clock, and the harness's own CPU time (with the
/// tools it ran and waited for). Two readings make an interval of a run's machine-load record.
/// </summary>
/// <param name="TotalSeconds">All CPUs' time since boot, idle included.</param>
/// <param name="BusySeconds">What of it was neither idle nor waiting for I/O (steal included: the hypervisor's other guests).</param>
/// <param name="MemoryPressure">/proc/pressure/memory "some avg10", %; null where the kernel has no PSI.</param>
/// <param name="CpuMhz">The mean of the CPUs' current clocks; null where neither cpufreq nor /proc/cpuinfo says.</param>
/// <param name="HarnessCpuSeconds">This process's CPU time and its waited-for children's.</param>
internal sealed record HostReading(
    double TotalSeconds,
    double BusySeconds,
    double LoadAverage,
    double? MemoryPressure,
    double? MemAvailableMb,
    double? CpuMhz,
    double HarnessCpuSeconds,
    long Timestamp
)
{
    /// <summary>Linux's USER_HZ: /proc/stat's and /proc/PID/stat's clock ticks per second (100 on every architecture .NET runs on).</summary>
    public const double TicksPerSecond = 100;

    /// <summary>Reads the host now; null where /proc/stat is not there (not Linux).</summary>
    public static HostReading? Read()
    {
        var stat = TryRead("/proc/stat");
        if (stat is null)
        {
            return null;
        }
        var (total, busy) = ParseStat(stat);
        return new HostReading(
            total,
            busy,
            ParseLoadAverage(TryRead("/proc/loadavg") ?? ""),
            ParsePressure(TryRead("/proc/pressure/memory")),
            ParseMemAvailableMb(TryRead("/proc/meminfo")),
            ReadCpuMhz(),
            ParseOwnCpuSeconds(TryRead("/proc/self/stat"))
                ?? Process.GetCurrentProcess().TotalProcessorTime.TotalSeconds,
            Stopwatch.GetTimestamp()
        );
    }

    /// <summary>(all CPUs' time, its busy part) in seconds from /proc/stat's "cpu" line: user nice system idle iowait irq softirq steal (guest time is already in user).</summary>
    public static (double Total, double Busy) ParseStat(string text)
    {
        var line = text.Split('\n').First(l => l.StartsWith("cpu ", StringComparison.Ordinal));
        var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Skip(1)
            .Take(8)
            .Select(v => long.Parse(v, CultureInfo.InvariantCulture))
            .ToArray();
        var total = f.Sum();
        var idle = f[3] + (f.Length > 4 ? f[4] : 0);
        return (total / TicksPerSecond, (total - idle) / TicksPerSecond);
    }

    public static double ParseLoadAverage(string text) =>
        double.TryParse(
            text.Split(' ', StringSplitOptions.RemoveEmptyEntries).FirstOrDefault(),
            NumberStyles.Float,
            CultureInfo.InvariantCulture,
            out var load
        )
            ? load
            : 0;

    /// <summary>The "some avg10" figure of a /proc/pressure file ("some avg10=1.23 avg60=… total=…").</summary>
    public static double? ParsePressure(string? text) =>
        text
            ?.Split('\n')
            .FirstOrDefault(l => l.StartsWith("some ", StringComparison.Ordinal))
            ?.Split(' ')
            .FirstOrDefault(f => f.StartsWith("avg10=", StringComparison.Ordinal))
            is { } field
        && double.TryParse(field["avg10=".Length..], NumberStyles.Float, CultureInfo.InvariantCulture, out var p)
            ? p
            : null;

    public static double? ParseMemAvailableMb(string? text) =>
        text?.Split('\n').FirstOrDefault(l => l.StartsWith("MemAvailable:", StringComparison.Ordinal)) is { } line
        && long.TryParse(
            line["MemAvailable:".Length..].Trim().Split(' ')[0],
            NumberStyles.Integer,
            CultureInfo.InvariantCulture,
            out var kb
        )
            ? kb / 1024.0
            : null;

    /// <summary>utime + stime + cutime + cstime of a /proc/PID/stat line (fields 14–17, after the command's closing parenthesis), seconds.</summary>
    public static double? ParseOwnCpuSeconds(string? text)
    {
        if (text is null || text.LastIndexOf(')') is var close && close < 0)
        {
            return null;
        }
        // After ") " come field 3 (state) onwards: utime is field 14, so index 11 here.
        var fields = text[(close + 2)..].Split(' ');
        return fields.Length > 14
            ? fields.Skip(11).Take(4).Sum(f => long.Parse(f, CultureInfo.InvariantCulture)) / TicksPerSecond
            : null;
    }

    /// <summary>The mean clock of the CPUs: cpufreq's scaling_cur_freq (kHz) where the kernel has it, else /proc/cpuinfo's "cpu MHz" lines.</summary>
    private static double? ReadCpuMhz()
    {
        var cpufreq = Directory.Exists("/sys/devices/system/cpu")
            ? Directory
                .GetDirectories("/sys/devices/system/cpu", "cpu*")
                .Select(d => TryRead(Path.Combine(d, "cpufreq", "scaling_cur_freq")))
                .OfType<string>()
                .Select(t => long.TryParse(t.Trim(), CultureInfo.InvariantCulture, out var khz) ? khz / 1000.0 : 0)
                .Where(m => m > 0)
                .ToList()
            : [];
        return cpufreq.Count > 0 ? cpufreq.Average() : ParseCpuinfoMhz(TryRead("/proc/cpuinfo"));
    }

    public static double? ParseCpuinfoMhz(string? text)
    {
        var mhz = ProcFields
            .Values(text, "cpu MHz")
            .Select(v => double.TryParse(v, CultureInfo.InvariantCulture, out var m) ? m : 0)
            .Where(m => m > 0)
            .ToList();
        return mhz.Count > 0 ? mhz.Average() : null;
    }

    private static string? TryRead(string path)
    {
        try
        {
            return File.Exists(path) ? File.ReadAllText(path) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
