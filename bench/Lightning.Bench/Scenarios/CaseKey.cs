using System.Globalization;

namespace Lightning.Bench.Scenarios;

/// <summary>A benchmark case's identity as "Name=Value, Name=Value" (sorted by name), the same from a scenario and from BenchmarkDotNet.</summary>
public static class CaseKey
{
    public static string From(IEnumerable<KeyValuePair<string, object>> parameters) =>
        string.Join(", ", parameters.OrderBy(p => p.Key, StringComparer.Ordinal)
            .Select(p => $"{p.Key}={Convert.ToString(p.Value, CultureInfo.InvariantCulture)}"));
}
