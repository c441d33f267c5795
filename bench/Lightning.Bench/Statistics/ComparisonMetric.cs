using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>A figure comparisons are made on: its per-iteration values in one topology, and which way is worse.</summary>
internal sealed record ComparisonMetric(
    string Name,
    string Unit,
    bool HigherIsWorse,
    Func<TopologySample, IReadOnlyList<double>> IterationValues
)
{
    /// <summary>
    /// BenchmarkDotNet's Mean: the time of one invocation (Concurrency payments per payer at once). A topology where no
    /// operation ended as its workload expects has none: the time of failing fast is not the workload's (an LND
    /// topology whose payments all failed INSUFFICIENT_BALANCE "took" 18.9 ms against its pair's 190 ms).
    /// </summary>
    public static readonly ComparisonMetric MeanTime = new(
        "mean time",
        "ms",
        HigherIsWorse: true,
        s => s.SuccessShare > 0 ? s.IterationsMs : []
    );

    /// <summary>Operations per second that ended as expected, per iteration: that share × operations per invocation ÷ its time ("payments/s", "attempts/s").</summary>
    public static ComparisonMetric Throughput(OperationNoun noun) =>
        new(
            $"{noun.Plural}/s",
            "",
            HigherIsWorse: false,
            s => s.IterationsMs.Select(t => s.SuccessShare * s.PaymentsPerInvocation / (t / 1000)).ToList()
        );

    /// <summary>The Lightning nodes' CPU time per operation that ended as expected (cgroups), each node's idle rate subtracted.</summary>
    public static ComparisonMetric CpuPer(OperationNoun noun) =>
        new($"CPU/{noun.Singular}", "ms", HigherIsWorse: true, s => s.CpuMsPerPayment);

    /// <summary>What the Lightning nodes wrote to storage per operation that ended as expected (their database and logs).</summary>
    public static ComparisonMetric StoragePer(OperationNoun noun) =>
        new($"storage/{noun.Singular}", "KB", HigherIsWorse: true, s => s.WrittenKbPerPayment ?? []);

    /// <summary>
    /// With --probe: the slowest answer of any node to a cheap RPC during an invocation (how responsive the nodes stay
    /// under the workload). A maximum, so it spreads far more than the timed metrics: judged against its own threshold.
    /// </summary>
    public static readonly ComparisonMetric RpcWait = new("RPC wait", "ms", HigherIsWorse: true, s => s.ProbeWorstMs)
    {
        ThresholdPercent = RpcWaitThresholdPercent,
    };

    /// <summary>
    /// RPC wait's practical threshold, in %: chosen from its A/A spread on real images (one image as two builds, 4
    /// topologies a case: point ratios 0.71–1.27 over six comparisons, pairs' spread 19–53 %, where the timed metrics'
    /// is a few %), so that it calls freezes (PR 8677's: 0.025 and 0.033), not one slow answer more or less.
    /// </summary>
    public const double RpcWaitThresholdPercent = 25;

    /// <summary>The metric's own practical threshold in % (null: the run's, --threshold).</summary>
    public double? ThresholdPercent { get; init; }

    /// <summary>With a history: a node's restart, from its container started again to its first payment that succeeded (one value per topology).</summary>
    public static readonly ComparisonMetric Restart = new("restart", "s", HigherIsWorse: true, s => s.RestartSeconds);

    /// <summary>
    /// A routes case: the mean latency of the pathfinder's answers at one amount, one value per topology (the pair's
    /// builds ask the same queries, so a pair's ratio compares like with like). Secondary: a budgeted run does not wait
    /// for it and --fail-on does not judge it.
    /// </summary>
    public static ComparisonMetric QueryTimeAt(long amountSat) =>
        new(
            AmountMetricName(amountSat),
            "ms",
            HigherIsWorse: true,
            s => s.RouteMeanMsByAmount.TryGetValue(amountSat, out var ms) ? [ms] : []
        );

    /// <summary>"query time at 1,000,000 sat".</summary>
    public static string AmountMetricName(long amountSat) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"query time at {amountSat:N0} sat");

    /// <summary>The timed metrics of operations called <paramref name="noun"/>.</summary>
    public static IReadOnlyList<ComparisonMetric> Timed(OperationNoun noun) =>
        [MeanTime, Throughput(noun), CpuPer(noun), StoragePer(noun)];

    /// <summary>Whether a comparison's metric, by name, is a rate of operations (payments/s, attempts/s): with mean time, what a budgeted run decides on.</summary>
    public static bool NamesThroughput(string metric) => metric.EndsWith("/s", StringComparison.Ordinal);

    /// <summary>
    /// The default threshold of instructions per payment, in %: chosen from the metric's A/A spread on real images
    /// (see docs/instructions.md), where the timed metrics' 2 % comes from theirs.
    /// </summary>
    public const double InstructionsThresholdPercent = 0.5;

    /// <summary>With --instructions: all Lightning nodes' instructions per operation that ended as expected, idle subtracted, in millions.</summary>
    public static ComparisonMetric InstructionsPer(OperationNoun noun) =>
        new(
            $"instructions/{noun.Singular}",
            "M",
            HigherIsWorse: true,
            s => s.Instructions is { } i ? [i.Total / 1e6] : []
        )
        {
            IsInstructions = true,
        };

    /// <summary>The unit of the instruction metrics.</summary>
    public const string InstructionsUnit = "M";

    /// <summary>One node's instructions per operation, in millions.</summary>
    public static ComparisonMetric InstructionsOf(OperationNoun noun, string node) =>
        new(
            $"instructions/{noun.Singular} {node}",
            InstructionsUnit,
            HigherIsWorse: true,
            s => s.Instructions?.ByNode.TryGetValue(node, out var v) == true ? [v / 1e6] : []
        )
        {
            IsInstructions = true,
        };

    /// <summary>Whether the metric counts instructions (an instruction run compares only these; a timed run never has them).</summary>
    public bool IsInstructions { get; init; }

    /// <summary>Whether a comparison's metric, by name (as comparisons and --compare's runs carry it), counts instructions.</summary>
    public static bool NamesInstructions(string metric) => metric.StartsWith("instructions/", StringComparison.Ordinal);

    /// <summary>
    /// The metrics of topologies measured the same way: instructions per payment (all nodes, then each node) when they
    /// ran under Valgrind, whose times mean nothing; else the timed metrics.
    /// </summary>
    public static IReadOnlyList<ComparisonMetric> For(IReadOnlyList<TopologySample> samples)
    {
        var noun = OperationNoun.Of(samples.Select(s => s.Noun));
        return samples.Count > 0 && samples.All(s => s.Instructions is not null)
            ?
            [
                InstructionsPer(noun),
                .. samples
                    .SelectMany(s => s.Instructions!.ByNode.Keys)
                    .Distinct()
                    .Order(StringComparer.Ordinal)
                    .Select(n => InstructionsOf(noun, n)),
            ]
            :
            [
                .. Timed(noun),
                .. samples.Count > 0 && samples.All(s => s.ProbeWorstMs.Count > 0)
                    ? [RpcWait]
                    : Array.Empty<ComparisonMetric>(),
                .. samples.Count > 0 && samples.All(s => s.RestartSeconds.Count > 0)
                    ? [Restart]
                    : Array.Empty<ComparisonMetric>(),
                .. samples
                    .SelectMany(s => s.RouteMeanMsByAmount.Keys)
                    .Distinct()
                    .Order()
                    .Where(a => samples.All(s => s.RouteMeanMsByAmount.ContainsKey(a)))
                    .Select(QueryTimeAt),
            ];
    }

    public static double SuccessShare(int succeeded, int failed) =>
        succeeded + failed == 0 ? 0 : (double)succeeded / (succeeded + failed);
}
