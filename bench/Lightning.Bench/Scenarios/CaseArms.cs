namespace Lightning.Bench.Scenarios;

/// <summary>
/// How a case's parameters split for comparisons: the arm (what is compared: Build and Traces), the replicate (which
/// fresh topology: Topology) and the cell (everything else: the same case for every arm, e.g. Concurrency=4).
/// </summary>
internal static class CaseArms
{
    public const string Build = nameof(ScenarioBenchmark.Build);
    public const string Traces = nameof(ScenarioBenchmark.Traces);
    public const string Topology = nameof(ScenarioBenchmark.Topology);

    /// <summary>"Concurrency=4" (or "-" for a scenario with no other parameters).</summary>
    public static string CellOf(IReadOnlyDictionary<string, string> parameters)
    {
        var rest = CaseKey.Shown(parameters).Where(p => p.Key is not (Build or Traces or Topology)).OrderBy(p => p.Key, StringComparer.Ordinal).ToList();
        return rest.Count == 0 ? "-" : string.Join(", ", rest.Select(p => $"{p.Key}={p.Value}"));
    }

    public static int ReplicateOf(IReadOnlyDictionary<string, string> parameters) =>
        parameters.TryGetValue(Topology, out var value) && int.TryParse(value, out var replicate) ? replicate : 1;

    public static (string Build, string Traces) ArmOf(IReadOnlyDictionary<string, string> parameters) =>
        (parameters.GetValueOrDefault(Build, ""), parameters.GetValueOrDefault(Traces, ""));
}
