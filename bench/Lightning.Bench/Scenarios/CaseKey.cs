using System.Globalization;

namespace Lightning.Bench.Scenarios;

/// <summary>A benchmark case's identity as "Name=Value, Name=Value" (sorted by name), the same from a scenario and from BenchmarkDotNet.</summary>
public static class CaseKey
{
    public static string From(IEnumerable<KeyValuePair<string, object>> parameters) =>
        string.Join(", ", Texts(parameters).OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));

    /// <summary>The parameters' values as they show in keys and files (a build by its name).</summary>
    public static IReadOnlyDictionary<string, string> Texts(IEnumerable<KeyValuePair<string, object>> parameters) =>
        parameters.ToDictionary(p => p.Key, p => Convert.ToString(p.Value, CultureInfo.InvariantCulture) ?? "");
}
