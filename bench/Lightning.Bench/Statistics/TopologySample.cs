using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>What one topology measured, as comparisons read it.</summary>
/// <param name="IterationsMs">Each measured invocation's time.</param>
/// <param name="CpuMsPerPayment">Each measured invocation's CPU time per successful payment, idle subtracted (empty without CPU data).</param>
/// <param name="WrittenKbPerPayment">Each measured invocation's storage writes per successful payment (empty without the data).</param>
internal sealed record TopologySample(
    IReadOnlyList<double> IterationsMs,
    double SuccessShare,
    int PaymentsPerInvocation,
    IReadOnlyList<double> CpuMsPerPayment,
    IReadOnlyList<double>? WrittenKbPerPayment = null
)
{
    /// <summary>What one operation of the topology's workload is called ("payment").</summary>
    public string Noun { get; init; } = OperationNoun.Payment.Singular;

    /// <summary>With --instructions: the nodes' instructions per payment (null in a timed run).</summary>
    public InstructionsPerPayment? Instructions { get; init; }

    /// <summary>With a history (LargeNode): how long the node took from its restart to its first payment , once per topology; empty without.</summary>
    public IReadOnlyList<double> RestartSeconds { get; init; } = [];

    /// <summary>The restart's setup steps of a topology, summed, as one value; empty when it had none.</summary>
    public static IReadOnlyList<double> RestartOf(Results.SetupTimes? setup) =>
        setup?.Steps.Where(s => s.Name.StartsWith(SetupStep.RestartPrefix, StringComparison.Ordinal)).ToList()
            is { Count: > 0 } steps
            ? [steps.Sum(s => s.Seconds)]
            : [];

    /// <summary>With --probe: per measured invocation, the slowest answer of any node to the probe's cheap RPC (empty without).</summary>
    public IReadOnlyList<double> ProbeWorstMs { get; init; } = [];

    /// <summary>A routes case: the mean latency of the pathfinder's answers at each amount (sat), all destinations; empty for other workloads.</summary>
    public IReadOnlyDictionary<long, double> RouteMeanMsByAmount { get; init; } = new Dictionary<long, double>();

    public static TopologySample Of(Results.CaseResults c) =>
        new(
            c.Figures!.IterationsMs,
            ComparisonMetric.SuccessShare(c.Figures.AsExpected, c.Figures.Errors),
            c.PaymentsPerInvocation,
            c.Figures.Cpu?.Iterations ?? [],
            c.Figures.Costs?.WrittenKbIterations ?? []
        )
        {
            Instructions = c.Figures.Instructions,
            Noun = c.Noun,
            ProbeWorstMs = c.Figures.Probe?.WorstIterationsMs ?? [],
            RouteMeanMsByAmount = RouteAmounts.MeansByAmount(c.Figures.RoutesByAmount),
            RestartSeconds = RestartOf(c.Topology?.Setup),
        };

    public static TopologySample Of(Results.CaseSummary c) =>
        new(
            c.IterationsMs,
            ComparisonMetric.SuccessShare(c.Succeeded, c.Failed),
            c.PaymentsPerInvocation,
            c.CpuMsPerPaymentIterations ?? [],
            c.WrittenKbPerPaymentIterations ?? []
        )
        {
            Instructions = c.Instructions,
            Noun = c.Noun ?? OperationNoun.Payment.Singular,
            ProbeWorstMs = c.ProbeWorstMsIterations ?? [],
            RouteMeanMsByAmount = RouteAmounts.MeansByAmount(c.RoutesByAmount),
            RestartSeconds = RestartOf(c.Setup),
        };
}
