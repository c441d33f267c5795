namespace Lightning.Bench.Statistics;

/// <summary>A figure comparisons are made on: its per-iteration values in one topology, and which way is worse.</summary>
/// <param name="IterationValues">From a topology's measured iteration times (ms), its success share and payments per invocation.</param>
public sealed record ComparisonMetric(
    string Name, string Unit, bool HigherIsWorse, Func<IReadOnlyList<double>, double, int, IReadOnlyList<double>> IterationValues)
{
    /// <summary>BenchmarkDotNet's Mean: the time of one invocation (Concurrency payments per payer at once).</summary>
    public static readonly ComparisonMetric MeanTime = new("mean time", "ms", HigherIsWorse: true, (ms, _, _) => ms);

    /// <summary>Successful payments per second, per iteration: success share × payments per invocation ÷ its time.</summary>
    public static readonly ComparisonMetric Throughput = new("payments/s", "", HigherIsWorse: false, (ms, share, paymentsPerInvocation) =>
        ms.Select(t => share * paymentsPerInvocation / (t / 1000)).ToList());

    public static IReadOnlyList<ComparisonMetric> All { get; } = [MeanTime, Throughput];

    public static double SuccessShare(int succeeded, int failed) => succeeded + failed == 0 ? 0 : (double)succeeded / (succeeded + failed);
}
