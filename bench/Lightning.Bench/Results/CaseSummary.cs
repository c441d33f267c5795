namespace Lightning.Bench.Results;

/// <summary>One case's figures, machine-readable (summary.json), so two runs compare by command.</summary>
/// <param name="IterationsMs">Every measured invocation's time, for tests between runs.</param>
/// <param name="CpuMsPerPayment">The Lightning nodes' CPU time per successful payment, idle subtracted (NaN without cgroup access).</param>
/// <param name="CpuMsPerPaymentByNode">Each node's CPU per payment, idle subtracted; null for a node within the idle noise (<see cref="CpuWithinIdleNoise"/>).</param>
/// <param name="CpuWithinIdleNoise">The nodes that spent no more than their idle rate says they spend doing nothing (<see cref="CpuPerPayment.IsWithinIdleNoise"/>): no cost is measured for them.</param>
/// <param name="WrittenKbPerPayment">KB the Lightning nodes wrote to storage per successful payment (NaN without cgroup access).</param>
/// <param name="Instructions">With --instructions: the nodes' instructions per successful payment, by node and process.</param>
/// <param name="InstructionCounts">With --instructions: each node's counts per process in the measured and the idle window, as counted.</param>
/// <param name="InstructionSettle">With --instructions: the waits for the nodes to fall quiet around the window's payments.</param>
/// <param name="InvocationSettle">A timed case's waits for the nodes to fall quiet before each invocation (not with --back-to-back).</param>
/// <param name="HarnessGc">The harness's own garbage collections inside the measured invocations.</param>
/// <param name="ProbeWorstMsIterations">With --probe: per measured invocation, the slowest answer of any node to the probe.</param>
/// <param name="ProbeByNode">With --probe: each node's answers to the probe (percentiles, slowest, longest stall).</param>
/// <param name="StoppedBy">Why the case ended before its iterations did (a node's death, a signal: "interrupted by SIGHUP"); absent for a complete case.</param>
/// <param name="RoutesByAmount">A routes case's queries by amount and destination group: answered, found share, mean, p50, p95, max (absent for other workloads).</param>
/// <param name="Setup">How long the case's topology took to get ready, step by step (absent in runs before it was kept).</param>
internal sealed record CaseSummary(
    string Case,
    IReadOnlyDictionary<string, string> Parameters,
    double MeanMs,
    double StdDevMs,
    IReadOnlyList<double> IterationsMs,
    int PaymentsPerInvocation,
    double PaymentsPerSecond,
    double P50Ms,
    double P95Ms,
    int Succeeded,
    int Failed,
    bool Completed,
    double CpuMsPerPayment = double.NaN,
    IReadOnlyList<double>? CpuMsPerPaymentIterations = null,
    IReadOnlyDictionary<string, double?>? CpuMsPerPaymentByNode = null,
    double CpuMsPerPaymentWithIdle = double.NaN,
    SetupTimes? Setup = null,
    double WrittenKbPerPayment = double.NaN,
    IReadOnlyList<double>? WrittenKbPerPaymentIterations = null,
    IReadOnlyDictionary<string, double>? WrittenKbPerPaymentByNode = null,
    IReadOnlyDictionary<string, double>? PeakMbByNode = null,
    IReadOnlyDictionary<string, double>? EndRssMbByNode = null,
    InstructionsPerPayment? Instructions = null,
    IReadOnlyDictionary<string, NodeInstructions>? InstructionCounts = null,
    InstructionSettle? InstructionSettle = null,
    HarnessGc? HarnessGc = null,
    InstructionSettle? InvocationSettle = null,
    string? Noun = null,
    double? PartsPerPayment = null,
    double? FailedPartsPerPayment = null,
    IReadOnlyList<double>? ProbeWorstMsIterations = null,
    IReadOnlyDictionary<string, ProbeNodeFigures>? ProbeByNode = null,
    IReadOnlyList<string>? CpuWithinIdleNoise = null,
    string? StoppedBy = null,
    IReadOnlyList<RouteAmountFigures>? RoutesByAmount = null
)
{
    /// <summary>
    /// The case's identity, read from its parameters when first asked (not written: the parameters are; a soak's
    /// profile windows carry parameters that are no case's, such as StartSeconds=12.0).
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public CaseId Id => field ??= CaseId.Of(Parameters);
}
