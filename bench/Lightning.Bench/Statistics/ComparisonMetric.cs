using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>A figure comparisons are made on: its per-iteration values in one topology, and which way is worse.</summary>
internal sealed record ComparisonMetric(string Name, string Unit, bool HigherIsWorse, Func<TopologySample, IReadOnlyList<double>> IterationValues)
{
    /// <summary>BenchmarkDotNet's Mean: the time of one invocation (Concurrency payments per payer at once).</summary>
    public static readonly ComparisonMetric MeanTime = new("mean time", "ms", HigherIsWorse: true, s => s.IterationsMs);

    /// <summary>Successful payments per second, per iteration: success share × payments per invocation ÷ its time.</summary>
    public static readonly ComparisonMetric Throughput = new("payments/s", "", HigherIsWorse: false, s =>
        s.IterationsMs.Select(t => s.SuccessShare * s.PaymentsPerInvocation / (t / 1000)).ToList());

    /// <summary>The Lightning nodes' CPU time per successful payment (cgroups), each node's idle rate subtracted.</summary>
    public static readonly ComparisonMetric CpuPerPayment = new("CPU/payment", "ms", HigherIsWorse: true, s => s.CpuMsPerPayment);

    /// <summary>What the Lightning nodes wrote to storage per successful payment (their database and logs).</summary>
    public static readonly ComparisonMetric StoragePerPayment = new("storage/payment", "KB", HigherIsWorse: true, s => s.WrittenKbPerPayment ?? []);

    public static IReadOnlyList<ComparisonMetric> All { get; } = [MeanTime, Throughput, CpuPerPayment, StoragePerPayment];

    /// <summary>
    /// The default threshold of instructions per payment, in %: chosen from the metric's A/A spread on real images
    /// (see docs/instructions.md), where the timed metrics' 2 % comes from theirs.
    /// </summary>
    public const double InstructionsThresholdPercent = 0.5;

    /// <summary>With --instructions: all Lightning nodes' instructions per successful payment, idle subtracted, in millions.</summary>
    public static readonly ComparisonMetric Instructions = new("instructions/payment", "M", HigherIsWorse: true,
        s => s.Instructions is { } i ? [i.Total / 1e6] : []) { IsInstructions = true };

    /// <summary>One node's instructions per successful payment, in millions.</summary>
    public static ComparisonMetric InstructionsOf(string node) => new($"instructions/payment {node}", "M", HigherIsWorse: true,
        s => s.Instructions?.ByNode.TryGetValue(node, out var v) == true ? [v / 1e6] : []) { IsInstructions = true };

    /// <summary>Whether the metric counts instructions (an instruction run compares only these; a timed run never has them).</summary>
    public bool IsInstructions { get; init; }

    /// <summary>Whether a comparison's metric, by name (as comparisons and --compare's runs carry it), counts instructions.</summary>
    public static bool NamesInstructions(string metric) => metric.StartsWith(Instructions.Name, StringComparison.Ordinal);

    /// <summary>
    /// The metrics of topologies measured the same way: instructions per payment (all nodes, then each node) when they
    /// ran under Valgrind, whose times mean nothing; else the timed metrics.
    /// </summary>
    public static IReadOnlyList<ComparisonMetric> For(IReadOnlyList<TopologySample> samples) =>
        samples.Count > 0 && samples.All(s => s.Instructions is not null)
            ? [Instructions, .. samples.SelectMany(s => s.Instructions!.ByNode.Keys).Distinct().Order(StringComparer.Ordinal).Select(InstructionsOf)]
            : All;

    public static double SuccessShare(int succeeded, int failed) => succeeded + failed == 0 ? 0 : (double)succeeded / (succeeded + failed);
}
