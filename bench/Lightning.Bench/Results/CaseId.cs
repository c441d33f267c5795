using System.Globalization;

namespace Lightning.Bench.Results;

/// <summary>
/// A benchmark case's identity, typed: which build and trace mode (the arm, what is compared), which fresh topology
/// (the replicate, the unit of every comparison) and which cell (the workload and the scenario's numbers, e.g.
/// Concurrency=4: the same case for every arm). Built once where a case is made (its scenario, BenchmarkDotNet's case,
/// a run's files); <see cref="Key"/> is how tables, files and folders name it ("Build=a, Concurrency=1, Topology=1,
/// Traces=on", the default workload left out, so runs from before workloads name theirs the same).
/// </summary>
internal sealed record CaseId(string Build, string Traces, int Topology, CellId Cell)
{
    public const string BuildName = "Build";
    public const string TracesName = "Traces";
    public const string TopologyName = "Topology";

    /// <summary>The arm: what a comparison compares.</summary>
    public (string Build, string Traces) Arm => (Build, Traces);

    /// <summary>"Build=a, Concurrency=1, Topology=1, Traces=on[, Workload=…]" (sorted by name).</summary>
    public string Key =>
        string.Join(", ", Shown().OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));

    /// <summary>Every parameter as text, as files keep them (the workload included, even the default).</summary>
    public IReadOnlyDictionary<string, string> Texts
    {
        get
        {
            var texts = Cell.Numbers.ToDictionary(n => n.Key, n => n.Value.ToString(CultureInfo.InvariantCulture));
            texts[BuildName] = Build;
            texts[TracesName] = Traces;
            texts[TopologyName] = Topology.ToString(CultureInfo.InvariantCulture);
            texts[CellId.WorkloadName] = Cell.Workload;
            return texts;
        }
    }

    /// <summary>The key without some parameters (e.g. Topology: what a case's topologies share).</summary>
    public string KeyWithout(params string[] names) =>
        string.Join(
            ", ",
            Shown()
                .Where(p => !names.Contains(p.Key))
                .OrderBy(p => p.Key, StringComparer.Ordinal)
                .Select(p => $"{p.Key}={p.Value}")
        );

    /// <summary>The same case on another topology index (the cell and arm kept).</summary>
    public CaseId WithTopology(int topology) => this with { Topology = topology };

    /// <summary>
    /// The identity of a case from its parameters as text (BenchmarkDotNet's values, or a run's files): Build, Traces,
    /// Topology and Workload by name, every other parameter a number of the cell. A missing workload is the default's
    /// (runs before workloads); a value that is no number is refused with the parameter's name.
    /// </summary>
    public static CaseId Of(IReadOnlyDictionary<string, string> parameters)
    {
        var numbers = new Dictionary<string, int>();
        foreach (var (name, value) in parameters)
        {
            if (name is BuildName or TracesName or TopologyName or CellId.WorkloadName)
            {
                continue;
            }
            numbers[name] = int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number)
                ? number
                : throw new InvalidDataException($"parameter {name}={value} of a case is no whole number");
        }
        var topology =
            parameters.TryGetValue(TopologyName, out var t)
            && int.TryParse(t, NumberStyles.Integer, CultureInfo.InvariantCulture, out var index)
                ? index
                : 1;
        return new CaseId(
            parameters.GetValueOrDefault(BuildName, ""),
            parameters.GetValueOrDefault(TracesName, ""),
            topology,
            new CellId(parameters.GetValueOrDefault(CellId.WorkloadName) ?? CellId.DefaultWorkload, numbers)
        );
    }

    /// <summary>The parameters a key names (a build or trace mode only when the case has one).</summary>
    private IEnumerable<KeyValuePair<string, string>> Shown()
    {
        if (Build.Length > 0)
        {
            yield return new(BuildName, Build);
        }
        if (Traces.Length > 0)
        {
            yield return new(TracesName, Traces);
        }
        yield return new(TopologyName, Topology.ToString(CultureInfo.InvariantCulture));
        foreach (var part in Cell.Parts())
        {
            yield return part;
        }
    }
}
