using System.Globalization;

namespace Lightning.Bench.TraceStress;

public static class PeakRss
{
    /// <summary>VmHWM: the process's peak resident set size.</summary>
    public static double Megabytes()
    {
        var line = File.Exists("/proc/self/status")
            ? File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("VmHWM:", StringComparison.Ordinal))
            : null;
        return line is null
            ? double.NaN
            : long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture)
                / 1024.0;
    }
}
