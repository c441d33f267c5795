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

    public static double SuccessShare(int succeeded, int failed) => succeeded + failed == 0 ? 0 : (double)succeeded / (succeeded + failed);
}
