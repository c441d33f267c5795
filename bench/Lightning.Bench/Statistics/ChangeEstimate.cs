using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Lightning.Bench.Statistics;

/// <summary>
/// A change in a function's CPU per payment over topologies: its mean, standard error and degrees of freedom. The
/// standard error is never below what sampling alone gives (each value is a count of samples, Poisson): a few
/// topologies whose counts happen to agree would otherwise show no spread and an interval of zero width.
/// </summary>
/// <param name="Count">What it rests on, as shown: "8" topology pairs, or "8 + 8" topologies.</param>
internal sealed record ChangeEstimate(double Mean, double StandardError, double DegreesOfFreedom, string Count)
{
    /// <summary>The two-sided t-interval of the mean change at <paramref name="confidence"/>.</summary>
    public (double Low, double High) Interval(double confidence)
    {
        if (StandardError == 0)
        {
            return (Mean, Mean);
        }
        var half = new StudentDistribution(DegreesOfFreedom).Quantile(1 - (1 - confidence) / 2) * StandardError;
        return (Mean - half, Mean + half);
    }

    /// <summary>Per topology pair differences (candidate − baseline); null with fewer than two pairs.</summary>
    /// <param name="samplingVariances">Per pair, the Poisson variance of its difference from sampling alone.</param>
    public static ChangeEstimate? Paired(IReadOnlyList<double> differences, IReadOnlyList<double> samplingVariances)
    {
        if (differences.Count < 2)
        {
            return null;
        }
        var n = differences.Count;
        var standardError = Math.Max(
            Math.Sqrt(SampleVariance.Of(differences) / n),
            Math.Sqrt(samplingVariances.Sum()) / n
        );
        return new ChangeEstimate(differences.Average(), standardError, n - 1, $"{n}");
    }

    /// <summary>Welch's estimate of mean(candidate) − mean(baseline) for topologies that were not paired; null with fewer than two on a side.</summary>
    /// <param name="baseline">Per topology, the value and its Poisson variance from sampling alone.</param>
    public static ChangeEstimate? Welch(
        IReadOnlyList<(double Value, double SamplingVariance)> baseline,
        IReadOnlyList<(double Value, double SamplingVariance)> candidate
    )
    {
        if (baseline.Count < 2 || candidate.Count < 2)
        {
            return null;
        }
        static (double Mean, double VarianceOfMean) Of(IReadOnlyList<(double Value, double SamplingVariance)> x) =>
            (
                x.Average(v => v.Value),
                Math.Max(
                    SampleVariance.Of(x.Select(v => v.Value).ToList()) / x.Count,
                    x.Sum(v => v.SamplingVariance) / ((double)x.Count * x.Count)
                )
            );
        var (mb, vb) = Of(baseline);
        var (mc, vc) = Of(candidate);
        var df =
            vb + vc == 0
                ? baseline.Count + candidate.Count - 2
                : SampleVariance.WelchDegreesOfFreedom(vb, baseline.Count, vc, candidate.Count);
        return new ChangeEstimate(mc - mb, Math.Sqrt(vb + vc), df, $"{baseline.Count} + {candidate.Count}");
    }
}
