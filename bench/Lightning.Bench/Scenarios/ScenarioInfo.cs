using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A scenario the user can name: a topology and a workload. Its benchmark class, the parameters it sweeps, its topology
/// for given values of them, and the workload its invocations run unless --workload says otherwise.
/// </summary>
/// <param name="Topology">The scenario's topology for one value of each of its parameters (by name), a build and a bitcoind image.</param>
internal sealed record ScenarioInfo(
    string Name,
    Type BenchmarkType,
    string Description,
    IReadOnlyList<ScenarioParameter> Parameters,
    Func<IReadOnlyDictionary<string, int>, BuildSpec, string, TopologySpec> Topology
)
{
    /// <summary>The workload of its cases when --workload gives none.</summary>
    public string Workload { get; init; } = Workloads.Payments.PayWorkloadKind.WorkloadName;

    /// <summary>The Lightning nodes of each of the scenario's topologies at the values swept (the parameters' defaults where none is given).</summary>
    public IReadOnlyList<IReadOnlyList<string>> TopologyNodes(IReadOnlyDictionary<string, IReadOnlyList<int>> sweeps) =>
        Topologies(sweeps).Select(t => (IReadOnlyList<string>)t.Nodes.Select(n => n.Name).ToList()).ToList();

    /// <summary>Each of the scenario's topologies at the values swept (the parameters' defaults where none is given), for a build named only.</summary>
    public IReadOnlyList<TopologySpec> Topologies(IReadOnlyDictionary<string, IReadOnlyList<int>> sweeps)
    {
        IEnumerable<IReadOnlyDictionary<string, int>> points = [new Dictionary<string, int>()];
        foreach (var parameter in Parameters)
        {
            var values = sweeps.GetValueOrDefault(parameter.Name) ?? parameter.Default;
            points = points
                .SelectMany(p =>
                    values.Select(v =>
                        (IReadOnlyDictionary<string, int>)new Dictionary<string, int>(p) { [parameter.Name] = v }
                    )
                )
                .ToList();
        }
        var names = BuildSpec.FromImage("names-only");
        return points.Select(p => Topology(p, names, "names-only")).ToList();
    }
}
