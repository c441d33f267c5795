using System.Globalization;

namespace Lightning.Bench.Profiling;

/// <summary>How profile figures are printed in tables and flame graph tooltips, so the two read alike.</summary>
internal static class ProfileFormat
{
    public const string Missing = "–";

    /// <summary>Milliseconds with about three significant digits: CPU per payment spans 0.001 ms to seconds.</summary>
    public static string Ms(double ms) =>
        !double.IsFinite(ms) ? Missing : ms.ToString(Digits(ms), CultureInfo.InvariantCulture);

    public static string SignedMs(double ms) => !double.IsFinite(ms) ? Missing : (ms > 0 ? "+" : "") + Ms(ms);

    /// <summary>A fraction 0..1 as a percentage without the sign: "45.0", "3.21", "0.05".</summary>
    public static string Percent(double share) =>
        !double.IsFinite(share)
            ? Missing
            : (share * 100).ToString(Math.Abs(share) >= 0.1 ? "0.0" : "0.00", CultureInfo.InvariantCulture);

    public static string SignedPercent(double share) =>
        !double.IsFinite(share) ? Missing : (share > 0 ? "+" : "") + Percent(share);

    public static string Number(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);

    public static string Count(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Samples to milliseconds of CPU per payment; NaN when there were no payments.</summary>
    public static double MsPerPayment(double samples, double samplesPerSecond, double payments) =>
        payments > 0 ? samples / samplesPerSecond * 1000 / payments : double.NaN;

    /// <summary>A name as a markdown table cell: code, with the cell separator escaped.</summary>
    public static string Cell(string name) =>
        "`" + name.Replace("|", "\\|", StringComparison.Ordinal).Replace("`", "'", StringComparison.Ordinal) + "`";

    public static void RequirePositive(double value, string name)
    {
        if (!(value > 0) || !double.IsFinite(value))
        {
            throw new ArgumentOutOfRangeException(name, value, $"{name} must be a positive number.");
        }
    }

    private static string Digits(double ms) =>
        Math.Abs(ms) switch
        {
            >= 100 => "0",
            >= 10 => "0.0",
            >= 1 => "0.00",
            _ => "0.000",
        };
}
