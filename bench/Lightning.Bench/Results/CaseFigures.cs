namespace Lightning.Bench.Results;

/// <summary>The figures a case is judged by, from its measured payments and BenchmarkDotNet's mean time per invocation.</summary>
/// <param name="PaymentsPerSecond">Successful payments per second: success share × payments per invocation ÷ mean invocation time.</param>
public sealed record CaseFigures(double PaymentsPerSecond, double P50Ms, double P95Ms, double MaxMs, int Succeeded, int Failed)
{
    public static CaseFigures Compute(CaseResults results, double meanNanoseconds)
    {
        var measured = results.Measured;
        var succeeded = measured.Where(r => r.Outcome == PaymentOutcome.Succeeded).Select(r => r.LatencyMs).Order().ToList();
        var failed = measured.Count - succeeded.Count;
        var successShare = measured.Count == 0 ? 0 : (double)succeeded.Count / measured.Count;
        var rate = meanNanoseconds > 0 ? successShare * results.PaymentsPerInvocation / (meanNanoseconds / 1e9) : 0;
        return new CaseFigures(rate, Percentile(succeeded, 0.50), Percentile(succeeded, 0.95), succeeded.LastOrDefault(double.NaN), succeeded.Count, failed);
    }

    /// <summary>
    /// The mean time of an invocation: BenchmarkDotNet's, or, for a case that stopped early (BenchmarkDotNet then has
    /// none), the harness's own of the measured invocations that completed.
    /// </summary>
    public static double? MeanNanoseconds(double? benchmarkDotNetMean, CaseResults results) =>
        benchmarkDotNetMean ?? results.CompletedMeanNanoseconds;

    /// <summary>Linear interpolation between closest ranks (R's default, type 7); NaN for no data.</summary>
    public static double Percentile(IReadOnlyList<double> sorted, double p)
    {
        if (sorted.Count == 0)
        {
            return double.NaN;
        }
        var rank = p * (sorted.Count - 1);
        var low = (int)Math.Floor(rank);
        var high = (int)Math.Ceiling(rank);
        return sorted[low] + (rank - low) * (sorted[high] - sorted[low]);
    }
}
