using System.Globalization;

namespace Lightning.Bench.Progress;

/// <summary>Durations as a person reads them at a glance: 45s, 14m 02s, 2h 05m.</summary>
internal static class ProgressFormat
{
    public static string Duration(TimeSpan time)
    {
        if (time < TimeSpan.Zero)
        {
            time = TimeSpan.Zero;
        }
        if (time.TotalHours >= 1)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{(int)time.TotalHours}h {time.Minutes:00}m");
        }
        if (time.TotalMinutes >= 1)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{time.Minutes}m {time.Seconds:00}s");
        }
        return string.Create(CultureInfo.InvariantCulture, $"{(int)time.TotalSeconds}s");
    }

    /// <summary>An invocation's mean time: 812.4 ms, 2.31 s.</summary>
    public static string Mean(TimeSpan time) =>
        time.TotalSeconds >= 1
            ? string.Create(CultureInfo.InvariantCulture, $"{time.TotalSeconds:0.00} s")
            : string.Create(CultureInfo.InvariantCulture, $"{time.TotalMilliseconds:0.0} ms");

    /// <summary>"7 of 24 (29 %)".</summary>
    public static string Count(int done, int total) =>
        total == 0
            ? string.Create(CultureInfo.InvariantCulture, $"{done}")
            : string.Create(CultureInfo.InvariantCulture, $"{done} of {total} ({100.0 * done / total:0} %)");
}
