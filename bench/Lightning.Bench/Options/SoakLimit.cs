using System.Globalization;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Options;

/// <summary>How long a soak runs: a duration ("2h", "30m", "90s", "1h30m") or a number of payments ("50000").</summary>
internal sealed record SoakLimit(TimeSpan? Duration, long? Payments)
{
    public static SoakLimit Parse(string option, string text)
    {
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var payments))
        {
            return payments is >= 1 and <= 1_000_000_000
                ? new SoakLimit(null, payments)
                : throw new UsageException(
                    $"{option} {text}: give 1 to 1000000000 payments, or a duration such as 30m or 2h"
                );
        }
        return OptionValues.TryDuration(text) is { } duration
            ? new SoakLimit(OptionValues.CheckDuration(option, text, duration), null)
            : throw new UsageException(
                $"{option} '{text}' is neither a number of payments (50000) nor a duration (90s, 30m, 2h, 1h30m)"
            );
    }

    public override string ToString() =>
        Duration is { } d
            ? d.TotalHours >= 1
                ? $"{d.TotalHours:0.##} h"
                : d.TotalMinutes >= 1
                    ? $"{d.TotalMinutes:0.##} min"
                    : $"{d.TotalSeconds:0} s"
            : $"{Payments} payments";
}
