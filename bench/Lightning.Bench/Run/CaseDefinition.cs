using Lightning.Bench.Options;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Run;

/// <summary>What a scenario decides about one benchmark case: its identity, its topology and how much one invocation pays.</summary>
/// <param name="Key">"Build=…, Concurrency=…, Traces=…": the case's identity in every table and file.</param>
/// <param name="TraceMode">on, off or unread (see <see cref="Options.TraceModes"/>).</param>
/// <param name="Iterations">Measured invocations per topology of this case (see <see cref="RunContext.IterationsFor"/>).</param>
internal sealed record CaseDefinition(
    string Key,
    IReadOnlyDictionary<string, string> Parameters,
    TopologySpec Topology,
    int PaymentsPerInvocation,
    string TraceMode,
    int Iterations);
