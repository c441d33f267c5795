using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Options;

/// <summary>How long a soak runs: a duration ("2h", "30m", "90s", "1h30m") or a number of payments ("50000").</summary>
internal sealed partial record SoakLimit(TimeSpan? Duration, long? Payments)
{
    public static SoakLimit Parse(string option, string text)
    {
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var payments))
        {
            return payments is >= 1 and <= 1_000_000_000 ? new SoakLimit(null, payments)
                : throw new UsageException($"{option} {text}: give 1 to 1000000000 payments, or a duration such as 30m or 2h");
        }
        var parts = DurationPart().Matches(text);
        if (parts.Count == 0 || string.Concat(parts.Select(p => p.Value)) != text)
        {
            throw new UsageException($"{option} '{text}' is neither a number of payments (50000) nor a duration (90s, 30m, 2h, 1h30m)");
        }
        var duration = parts.Aggregate(TimeSpan.Zero, (sum, p) => sum + int.Parse(p.Groups["n"].Value, CultureInfo.InvariantCulture) * p.Groups["unit"].Value switch
        {
            "h" => TimeSpan.FromHours(1),
            "m" => TimeSpan.FromMinutes(1),
            _ => TimeSpan.FromSeconds(1),
        });
        return duration >= TimeSpan.FromSeconds(10) && duration <= TimeSpan.FromDays(30) ? new SoakLimit(duration, null)
            : throw new UsageException($"{option} {text}: give a duration from 10s to 30 days (720h)");
    }

    public override string ToString() => Duration is { } d
        ? d.TotalHours >= 1 ? $"{d.TotalHours:0.##} h" : d.TotalMinutes >= 1 ? $"{d.TotalMinutes:0.##} min" : $"{d.TotalSeconds:0} s"
        : $"{Payments} payments";

    [GeneratedRegex("(?<n>[0-9]{1,6})(?<unit>h|m|s)")]
    private static partial Regex DurationPart();
}
