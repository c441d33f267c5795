using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace Lightning.Bench.Reports;

/// <summary>A change in a function's CPU per payment over topologies: its mean, standard error and degrees of freedom.</summary>
/// <param name="Count">What it rests on, as shown: "8" topology pairs, or "8 + 8" topologies.</param>
public sealed record ChangeEstimate(double Mean, double StandardError, double DegreesOfFreedom, string Count)
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
    public static ChangeEstimate? Paired(IReadOnlyList<double> differences)
    {
        if (differences.Count < 2)
        {
            return null;
        }
        var mean = differences.Average();
        var variance = differences.Sum(d => (d - mean) * (d - mean)) / (differences.Count - 1);
        return new ChangeEstimate(mean, Math.Sqrt(variance / differences.Count), differences.Count - 1, $"{differences.Count}");
    }

    /// <summary>Welch's estimate of mean(candidate) − mean(baseline) for topologies that were not paired; null with fewer than two on a side.</summary>
    public static ChangeEstimate? Welch(IReadOnlyList<double> baseline, IReadOnlyList<double> candidate)
    {
        if (baseline.Count < 2 || candidate.Count < 2)
        {
            return null;
        }
        static (double Mean, double VarianceOfMean) Of(IReadOnlyList<double> x)
        {
            var mean = x.Average();
            return (mean, x.Sum(v => (v - mean) * (v - mean)) / (x.Count - 1) / x.Count);
        }
        var (mb, vb) = Of(baseline);
        var (mc, vc) = Of(candidate);
        var df = vb + vc == 0 ? baseline.Count + candidate.Count - 2
            : Math.Pow(vb + vc, 2) / (vb * vb / (baseline.Count - 1) + vc * vc / (candidate.Count - 1));
        return new ChangeEstimate(mc - mb, Math.Sqrt(vb + vc), df, $"{baseline.Count} + {candidate.Count}");
    }
}
