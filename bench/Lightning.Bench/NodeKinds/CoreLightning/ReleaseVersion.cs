using System.Globalization;
using System.Text.RegularExpressions;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>A Core Lightning release as its version names it ("v25.05", "v26.06.6", "v24.08.2-modded"): year and month.</summary>
internal sealed partial record ReleaseVersion(int Year, int Month) : IComparable<ReleaseVersion>
{
    /// <summary>The release a version string names, or null when it names none (a build from an unknown source).</summary>
    public static ReleaseVersion? Parse(string? version)
    {
        var match = version is null ? null : Release().Match(version);
        return match is { Success: true }
            ? new ReleaseVersion(
                int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture),
                int.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture)
            )
            : null;
    }

    public int CompareTo(ReleaseVersion? other) =>
        other is null ? 1 : (Year, Month).CompareTo((other.Year, other.Month));

    public static bool operator <(ReleaseVersion a, ReleaseVersion b) => a.CompareTo(b) < 0;

    public static bool operator >(ReleaseVersion a, ReleaseVersion b) => a.CompareTo(b) > 0;

    public static bool operator <=(ReleaseVersion a, ReleaseVersion b) => a.CompareTo(b) <= 0;

    public static bool operator >=(ReleaseVersion a, ReleaseVersion b) => a.CompareTo(b) >= 0;

    public override string ToString() => $"v{Year:00}.{Month:00}";

    [GeneratedRegex(@"^v?(\d{2})\.(\d{2})")]
    private static partial Regex Release();
}
