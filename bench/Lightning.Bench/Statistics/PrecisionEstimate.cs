using Lightning.Bench.Results;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Pragmastat;

namespace Lightning.Bench.Statistics;

/// <summary>The estimates behind a comparison's <see cref="ComparisonPrecision"/>: its pairs' variance components, the iterations per topology that narrow it most per minute, and the change it detects.</summary>
internal static class PrecisionEstimate
{
    /// <param name="logRatios">Each pair's log ratio of topology means.</param>
    /// <param name="withinRelativeVariance">Mean over both arms' topologies of (iteration SD / topology mean)².</param>
    /// <param name="topologySeconds">Seconds a topology costs besides its iterations; <paramref name="iterationSeconds"/>: one iteration.</param>
    /// <param name="sequential">The interval is a confidence sequence: `detects ≥` is read from its width, not the t-interval's.</param>
    public static ComparisonPrecision? Of(
        IReadOnlyList<double> logRatios,
        double withinRelativeVariance,
        int iterations,
        double topologySeconds,
        double iterationSeconds,
        double thresholdPercent,
        bool sequential = false
    )
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
            suggested =
                topologyVariance == 0
                    ? ComparisonPrecision.MaxSuggestedIterations
                    : (int)
                        Math.Clamp(
                            Math.Round(
                                Math.Sqrt(
                                    2 * withinRelativeVariance * topologySeconds / (topologyVariance * iterationSeconds)
                                )
                            ),
                            2,
                            ComparisonPrecision.MaxSuggestedIterations
                        );
        }
        return new ComparisonPrecision(
            Math.Sqrt(pairVariance) * 100,
            share,
            iterations,
            suggested,
            sequential
                ? DetectableSequential(logRatios.Count, Math.Sqrt(pairVariance), thresholdPercent)
                : Detectable(Math.Sqrt(pairVariance / logRatios.Count), logRatios.Count - 1, thresholdPercent)
        );
    }

    /// <summary>
    /// The iteration noise of a pair whose arms took turns invocation by invocation (--pairing alternate), per arm as
    /// <see cref="Of"/> takes it: half the variance of the paired differences of relative invocation values (the i-th
    /// invocation of each arm, next to each other in time), averaged over the pairs. The machine's moment is common to
    /// both invocations of a turn and leaves their difference, as it leaves the pair's ratio, so it is not counted as
    /// iteration noise (each arm's own variance counts it: at Concurrency=10 here about twice the paired figure, which
    /// asked for the most iterations whatever the pairs' spread). Null when a pair has fewer than two turns.
    /// </summary>
    public static double? PairedWithinVariance(
        IReadOnlyList<IReadOnlyList<double>> baseline,
        IReadOnlyList<IReadOnlyList<double>> candidate
    )
    {
        var perPair = baseline
            .Zip(
                candidate,
                (b, c) =>
                {
                    var n = Math.Min(b.Count, c.Count);
                    if (n < 2)
                    {
                        return (double?)null;
                    }
                    var (bMean, cMean) = (b.Take(n).Average(), c.Take(n).Average());
                    return SampleVariance.Of(Enumerable.Range(0, n).Select(i => c[i] / cMean - b[i] / bMean).ToList())
                        / 2;
                }
            )
            .ToList();
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
        return double.IsInfinity(half)
            ? double.NaN
            : (Math.Exp(Math.Log(1 + thresholdPercent / 100) + margin) - 1) * 100;
    }

    /// <summary>threshold + (t(97.5 %) + t(80 %)) standard errors on the log scale, as a change in %.</summary>
    public static double Detectable(double logStandardError, double degreesOfFreedom, double thresholdPercent)
    {
        var t = new StudentDistribution(degreesOfFreedom);
        var margin =
            (
                t.Quantile(new Probability(1 - (1 - TopologyComparison.Confidence) / 2))
                + t.Quantile(new Probability(ComparisonPrecision.Power))
            ) * logStandardError;
        return (Math.Exp(Math.Log(1 + thresholdPercent / 100) + margin) - 1) * 100;
    }
}
