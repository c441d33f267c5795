using Perfolizer.Mathematics.QuantileEstimators;
using Pragmastat;

namespace Lightning.Bench.Results;

/// <summary>
/// The figures a case is judged by, computed once when it ends, from its measured operations and iteration times. An
/// operation counts when it ended as its workload asks (<see cref="OperationRecord.AsExpected"/>: a payment that
/// succeeded, an attempt that failed at the payee); the others are errors. A workload whose every operation is an
/// expected failure has figures like any other.
/// </summary>
/// <param name="IterationsMs">Each measured invocation's time: BenchmarkDotNet's, or, for a case that stopped early, the harness's own.</param>
/// <param name="PaymentsPerSecond">Operations per second that ended as expected: that share × operations per invocation ÷ mean invocation time.</param>
/// <param name="P50Ms">Latency percentiles of the operations that ended as expected.</param>
/// <param name="AsExpected">Measured operations that ended as the workload asks.</param>
/// <param name="Errors">Measured operations that did not (payments.csv has each one's reason).</param>
/// <param name="FromBenchmarkDotNet">Whether the times are BenchmarkDotNet's (false: the case stopped before BenchmarkDotNet had results).</param>
internal sealed record CaseFigures(
    double MeanMs,
    double StdDevMs,
    IReadOnlyList<double> IterationsMs,
    double PaymentsPerSecond,
    double P50Ms,
    double P95Ms,
    double MaxMs,
    int AsExpected,
    int Errors,
    bool FromBenchmarkDotNet
)
{
    /// <summary>The nodes' CPU time per successful payment, when the harness could read their cgroups.</summary>
    public CpuPerPayment? Cpu { get; init; }

    /// <summary>Storage writes per payment and memory of the nodes, when the harness could read their cgroups.</summary>
    public NodeCosts? Costs { get; init; }

    /// <summary>Parts per operation that ended as expected, where the payer reported them (a multi-part payment's); null otherwise.</summary>
    public double? PartsPerOperation { get; init; }

    /// <summary>Failed part attempts per operation that ended as expected (parts retried on other paths), where reported.</summary>
    public double? FailedPartsPerOperation { get; init; }

    /// <summary>With --instructions: the nodes' instructions per successful payment of the measured window.</summary>
    public InstructionsPerPayment? Instructions { get; init; }

    /// <summary>A routes case's queries split by amount and destination group (null for other workloads).</summary>
    public IReadOnlyList<RouteAmountFigures>? RoutesByAmount { get; init; }

    /// <summary>With --probe: how fast the nodes answered a cheap RPC while the case ran.</summary>
    public ProbeFigures? Probe { get; init; }

    public static CaseFigures Compute(
        CaseResults results,
        double meanNanoseconds,
        double stdDevNanoseconds = double.NaN,
        IReadOnlyList<double>? iterationsNanoseconds = null,
        bool fromBenchmarkDotNet = false
    )
    {
        var measured = results.Counted;
        var succeeded = measured.Where(r => r.AsExpected).Select(r => r.LatencyMs).Order().ToList();
        var failed = measured.Count - succeeded.Count;
        var successShare = measured.Count == 0 ? 0 : (double)succeeded.Count / measured.Count;
        var rate = meanNanoseconds > 0 ? successShare * results.PaymentsPerInvocation / (meanNanoseconds / 1e9) : 0;
        return new CaseFigures(
            meanNanoseconds / 1e6,
            stdDevNanoseconds / 1e6,
            (iterationsNanoseconds ?? []).Select(n => n / 1e6).ToList(),
            rate,
            Percentile(succeeded, 0.50),
            Percentile(succeeded, 0.95),
            succeeded.LastOrDefault(double.NaN),
            succeeded.Count,
            failed,
            fromBenchmarkDotNet
        )
        {
            Cpu = results.CpuPerPayment(),
            Costs = results.NodeCosts(),
            Instructions = InstructionsPerPayment.Of(results.Instructions, succeeded.Count),
            Probe = ProbeFigures.Of(results.Probes),
            RoutesByAmount = RouteAmounts.Of(measured),
            PartsPerOperation = MeanOf(measured.Where(r => r.AsExpected).Select(r => r.Parts)),
            FailedPartsPerOperation = MeanOf(measured.Where(r => r.AsExpected).Select(r => r.FailedParts)),
        };
    }

    /// <summary>The mean of the values reported, or null when none is.</summary>
    private static double? MeanOf(IEnumerable<int?> values)
    {
        var reported = values.OfType<int>().ToList();
        return reported.Count == 0 ? null : reported.Average();
    }

    /// <summary>The median of the values that are known (not null, finite): the tables' medians over a case's topologies; NaN for none.</summary>
    public static double MedianOfKnown(IEnumerable<double?> values) =>
        Percentile(values.Where(v => v is { } x && double.IsFinite(x)).Select(v => v!.Value).ToList(), 0.5);

    /// <summary>Linear interpolation between closest ranks (Hyndman–Fan type 7, R's default); NaN for no data.</summary>
    public static double Percentile(IReadOnlyList<double> values, double p) =>
        values.Count == 0
            ? double.NaN
            : HyndmanFanQuantileEstimator.Type7.Quantile(new Sample(values.ToArray()), new Probability(p));
}
