using Lightning.Bench.Options;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Run;

/// <summary>What a scenario decides about one benchmark case: its identity, its topology, its workload and how many operations one invocation makes.</summary>
/// <param name="Key">"Build=…, Concurrency=…, Traces=…": the case's identity in every table and file.</param>
/// <param name="TraceMode">on, off or unread (see <see cref="Options.TraceModes"/>).</param>
/// <param name="Iterations">Measured invocations per topology of this case (see <see cref="RunContext.IterationsFor"/>).</param>
internal sealed record CaseDefinition(
    string Key,
    IReadOnlyDictionary<string, string> Parameters,
    TopologySpec Topology,
    int PaymentsPerInvocation,
    string TraceMode,
    int Iterations,
    IWorkloadKind Workload);
