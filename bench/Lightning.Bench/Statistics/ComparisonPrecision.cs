using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Pragmastat;

namespace Lightning.Bench.Statistics;

/// <summary>
/// How precise one paired comparison was, and how to buy more precision in the same time. A pair's log ratio varies
/// for two reasons: iteration noise, which more iterations per topology average away, and the topologies themselves
/// (and the machine between them), which only more topologies average away. With each topology's fixed cost (setup,
/// idle window, teardown) and each iteration's, the iterations per topology that give the narrowest interval for the
/// time spent are sqrt(2 σ²within · cost per topology / (σ²pairs · cost per iteration)) (Kalibera and Jones, "Rigorous
/// benchmarking in reasonable time", 2013, for two levels).
/// </summary>
/// <param name="PairSdPercent">Standard deviation of the pairs' log ratios, in %.</param>
/// <param name="IterationNoiseShare">The part of that variance which iteration noise explains (0 to 1).</param>
/// <param name="Iterations">Measured iterations per topology in this run.</param>
/// <param name="SuggestedIterations">Iterations per topology for the narrowest interval per minute; null without costs or variance.</param>
/// <param name="DetectablePercent">The smallest change, the worse way, that an interval this precise calls beyond the threshold 80 % of the time.</param>
internal sealed record ComparisonPrecision(
    double PairSdPercent, double IterationNoiseShare, int Iterations, int? SuggestedIterations, double DetectablePercent)
{
    public const double Power = 0.8;
    public const int MaxSuggestedIterations = 1000;

    /// <param name="logRatios">Each pair's log ratio of topology means.</param>
    /// <param name="withinRelativeVariance">Mean over both arms' topologies of (iteration SD / topology mean)².</param>
    /// <param name="topologySeconds">Seconds a topology costs besides its iterations; <paramref name="iterationSeconds"/>: one iteration.</param>
    /// <param name="sequential">The interval is a confidence sequence: `detects ≥` is read from its width, not the t-interval's.</param>
    public static ComparisonPrecision? Of(
        IReadOnlyList<double> logRatios, double withinRelativeVariance, int iterations, double topologySeconds, double iterationSeconds, double thresholdPercent,
        bool sequential = false)
    {
        if (logRatios.Count < 2 || iterations < 1)
        {
            return null;
        }
        var pairVariance = SampleVariance.Of(logRatios);
        var fromIterations = 2 * withinRelativeVariance / iterations;
        var share = pairVariance > 0 ? Math.Min(1, fromIterations / pairVariance) : double.NaN;
        var topologyVariance = Math.Max(0, pairVariance - fromIterations);
        int? suggested = null;
        if (topologySeconds > 0 && iterationSeconds > 0 && withinRelativeVariance > 0)
        {
            suggested = topologyVariance == 0
                ? MaxSuggestedIterations
                : (int)Math.Clamp(Math.Round(Math.Sqrt(2 * withinRelativeVariance * topologySeconds / (topologyVariance * iterationSeconds))), 2, MaxSuggestedIterations);
        }
        return new ComparisonPrecision(Math.Sqrt(pairVariance) * 100, share, iterations, suggested,
            sequential
                ? DetectableSequential(logRatios.Count, Math.Sqrt(pairVariance), thresholdPercent)
                : Detectable(Math.Sqrt(pairVariance / logRatios.Count), logRatios.Count - 1, thresholdPercent));
    }

    /// <summary>
    /// The iteration noise of a pair whose arms took turns invocation by invocation (--pairing alternate), per arm as
    /// <see cref="Of"/> takes it: half the variance of the paired differences of relative invocation values (the i-th
    /// invocation of each arm, next to each other in time), averaged over the pairs. The machine's moment is common to
    /// both invocations of a turn and leaves their difference, as it leaves the pair's ratio, so it is not counted as
    /// iteration noise (each arm's own variance counts it: at Concurrency=10 here about twice the paired figure, which
    /// asked for the most iterations whatever the pairs' spread). Null when a pair has fewer than two turns.
    /// </summary>
    public static double? PairedWithinVariance(IReadOnlyList<IReadOnlyList<double>> baseline, IReadOnlyList<IReadOnlyList<double>> candidate)
    {
        var perPair = baseline.Zip(candidate, (b, c) =>
        {
            var n = Math.Min(b.Count, c.Count);
            if (n < 2)
            {
                return (double?)null;
            }
            var (bMean, cMean) = (b.Take(n).Average(), c.Take(n).Average());
            return SampleVariance.Of(Enumerable.Range(0, n).Select(i => c[i] / cMean - b[i] / bMean).ToList()) / 2;
        }).ToList();
        return perPair.Count == 0 || perPair.Any(v => v is null) ? null : perPair.Average(v => v!.Value);
    }

    /// <summary>
    /// A confidence sequence's `detects ≥` at <paramref name="pairs"/>: threshold + its half-width + the normal 80 %
    /// quantile of standard errors (the lower end then clears the threshold 80 % of the time).
    /// </summary>
    public static double DetectableSequential(int pairs, double pairSd, double thresholdPercent)
    {
        var half = ConfidenceSequence.HalfWidth(pairs, pairSd * pairSd * (pairs - 1));
        var margin = half + 0.8416 * pairSd / Math.Sqrt(pairs);
        return double.IsInfinity(half) ? double.NaN : (Math.Exp(Math.Log(1 + thresholdPercent / 100) + margin) - 1) * 100;
    }

    /// <summary>threshold + (t(97.5 %) + t(80 %)) standard errors on the log scale, as a change in %.</summary>
    public static double Detectable(double logStandardError, double degreesOfFreedom, double thresholdPercent)
    {
        var t = new StudentDistribution(degreesOfFreedom);
        var margin = (t.Quantile(new Probability(1 - (1 - TopologyComparison.Confidence) / 2)) + t.Quantile(new Probability(Power))) * logStandardError;
        return (Math.Exp(Math.Log(1 + thresholdPercent / 100) + margin) - 1) * 100;
    }
}
