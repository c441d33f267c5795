using System.Globalization;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Reports;

/// <summary>
/// Versions in release order: the numbers in them compared as numbers, left to right ("v24.05" &lt; "v24.08.2" &lt;
/// "v24.11" &lt; "v25.02-196-ge27dee0"), the text before and between them as text; what follows a "-g" (a commit's
/// hash in git describe) only breaks ties. A tag's later commits ("v25.02-196-g…") come after it and before its point
/// releases ("v25.02.2"): which came first is not in the names. An empty version (unknown) sorts last.
/// </summary>
internal sealed partial class VersionOrder : IComparer<string>
{
    public static readonly VersionOrder Instance = new();

    public int Compare(string? x, string? y)
    {
        if (string.IsNullOrEmpty(x) || string.IsNullOrEmpty(y))
        {
            return (string.IsNullOrEmpty(x) ? 1 : 0) - (string.IsNullOrEmpty(y) ? 1 : 0);
        }
        var a = Parts(x);
        var b = Parts(y);
        for (var i = 0; i < Math.Min(a.Count, b.Count); i++)
        {
            var c =
                a[i].Number is { } m && b[i].Number is { } n
                    ? m.CompareTo(n)
                    : string.CompareOrdinal(a[i].Text, b[i].Text);
            if (c != 0)
            {
                return c;
            }
        }
        // "v25.05" before "v25.05.1": a release before its point releases.
        return a.Count != b.Count ? a.Count.CompareTo(b.Count) : string.CompareOrdinal(x, y);
    }

    private static List<(long? Number, string Text)> Parts(string version)
    {
        var hash = version.IndexOf("-g", StringComparison.Ordinal);
        var ordered = hash >= 0 ? version[..hash] : version;
        return Pieces()
            .Matches(ordered)
            .Select(m =>
                (
                    long.TryParse(m.Value, NumberStyles.None, CultureInfo.InvariantCulture, out var n)
                        ? n
                        : (long?)null,
                    m.Value
                )
            )
            .ToList();
    }

    [GeneratedRegex(@"\d+|[^\d]+")]
    private static partial Regex Pieces();
}
