using BenchmarkDotNet.Running;
using System.Globalization;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A benchmark case's identity as "Name=Value, Name=Value" (sorted by name), the same from a scenario and from
/// BenchmarkDotNet. The default workload is what a key without one means (every run before workloads had it), so it is
/// left out: "Build=a, Concurrency=1, Topology=1, Traces=on" is the pay workload's case, "…, Workload=fail-at-payee" another's.
/// </summary>
internal static class CaseKey
{
    public const string Workload = nameof(ScenarioBenchmark.Workload);

    public static string From(IEnumerable<KeyValuePair<string, object>> parameters) =>
        string.Join(", ", Shown(Texts(parameters)).OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));

    /// <summary>The parameters a key names: all but the default workload.</summary>
    public static IEnumerable<KeyValuePair<string, string>> Shown(IReadOnlyDictionary<string, string> texts) =>
        texts.Where(p => !(p.Key == Workload && p.Value == Workloads.WorkloadCatalog.Default.Name));

    /// <summary>The parameters' values as they show in keys and files (a build by its name).</summary>
    public static IReadOnlyDictionary<string, string> Texts(IEnumerable<KeyValuePair<string, object>> parameters) =>
        parameters.ToDictionary(p => p.Key, p => Convert.ToString(p.Value, CultureInfo.InvariantCulture) ?? "");

    /// <summary>A case's parameters as text, as BenchmarkDotNet holds them.</summary>
    public static IReadOnlyDictionary<string, string> TextsOf(BenchmarkCase benchmarkCase) => Texts(Parameters(benchmarkCase));

    /// <summary>The key of a case BenchmarkDotNet runs.</summary>
    public static string Of(BenchmarkCase benchmarkCase) => From(Parameters(benchmarkCase));

    /// <summary>The key of the case whose parameters are <paramref name="benchmarkCase"/>'s with <paramref name="parameter"/> set to <paramref name="value"/>, or null if it has no such parameter.</summary>
    public static string? Counterpart(BenchmarkCase benchmarkCase, string parameter, string value)
    {
        var parameters = Parameters(benchmarkCase);
        if (!parameters.ContainsKey(parameter))
        {
            return null;
        }
        parameters[parameter] = value;
        return From(parameters);
    }

    private static Dictionary<string, object> Parameters(BenchmarkCase c) =>
        c.Parameters.Items.ToDictionary(p => p.Name, p => p.Value is OrderedName ordered ? ordered.Name : p.Value);
}
