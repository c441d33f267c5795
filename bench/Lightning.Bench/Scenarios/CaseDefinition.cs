using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Scenarios;

/// <summary>What a scenario decides about one benchmark case: its identity, its topology, its workload and how many operations one invocation makes.</summary>
/// <param name="Id">The case's identity; its <see cref="CaseId.Key"/> names it in every table and file.</param>
/// <param name="TraceMode">on, off or unread (see <see cref="TraceModes"/>).</param>
/// <param name="Iterations">Measured invocations per topology of this case (see <see cref="IBenchmarkRun.MeasuredFor"/>).</param>
internal sealed record CaseDefinition(
    CaseId Id,
    IReadOnlyDictionary<string, string> Parameters,
    TopologySpec Topology,
    int PaymentsPerInvocation,
    string TraceMode,
    int Iterations,
    IWorkloadKind Workload
)
{
    /// <summary>"Build=…, Concurrency=…, Topology=…, Traces=…": the case's name in every table and file.</summary>
    public string Key => Id.Key;
}
