using Lightning.Bench.Results;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Pragmastat;

namespace Lightning.Bench.Statistics;

/// <summary>
/// Compares two arms (builds, or trace modes) of one case where the unit of replication is a fresh topology: each
/// topology is summarised by the mean of its measured iterations, and only those summaries are tested.
/// <para>
/// Within a run the arms' topologies come in pairs started next to each other in time (the same Topology index), so
/// the interval is a t-interval on the per-pair log ratios: drift of the machine over the run is common to a pair and
/// cancels. Across runs (--compare) there are no pairs: Welch's t-interval on the log topology means. Both are
/// exp-transformed into an interval of the ratio. The hierarchical bootstrap (resample topologies, then iterations
/// within them) of the ratio of means is reported beside it as a cross-check; with few topologies it is too narrow,
/// which is why it does not decide.
/// </para>
/// </summary>
internal static class TopologyComparison
{
    public const double Confidence = RatioInterval.Confidence;
    public const int BootstrapResamples = 2000;

    /// <param name="baseline">Each baseline topology's measured iteration values, in topology order.</param>
    /// <param name="candidate">The candidate's, in the same order; paired by index when <paramref name="paired"/>.</param>
    /// <param name="sequential">A budgeted run, which looks after every pair: the paired interval is the confidence
    /// sequence (<see cref="ConfidenceSequence"/>), not the t-interval; the p-value stays the t-test's, for reading only.</param>
    public static RatioInterval Compare(
        IReadOnlyList<IReadOnlyList<double>> baseline,
        IReadOnlyList<IReadOnlyList<double>> candidate,
        bool paired,
        int seed,
        bool sequential = false
    )
    {
        var baseMeans = baseline.Where(t => t.Count > 0).Select(t => t.Average()).ToList();
        var candMeans = candidate.Where(t => t.Count > 0).Select(t => t.Average()).ToList();
        var (bootLow, bootHigh) = Bootstrap(baseline, candidate, seed);
        var pairs =
            paired
            && baseline.Count == candidate.Count
            && baseline.All(t => t.Count > 0)
            && candidate.All(t => t.Count > 0);
        // A ratio of means needs them above zero: a metric a topology did not move (storage of a call that writes nothing) has none.
        if (baseMeans.Count == 0 || candMeans.Count == 0)
        {
            return NoRatio(baseMeans.Count, candMeans.Count, paired, bootLow, bootHigh);
        }
        if (baseMeans.Concat(candMeans).Any(m => m <= 0))
        {
            return Zeros(baseMeans, candMeans, pairs, sequential, bootLow, bootHigh)
                ?? NoRatio(baseMeans.Count, candMeans.Count, paired, bootLow, bootHigh);
        }
        if (pairs)
        {
            var logRatios = candMeans.Zip(baseMeans, (c, b) => Math.Log(c / b)).ToList();
            var (low, high, p) = OneSampleT(logRatios);
            if (sequential)
            {
                var (mean, half) = ConfidenceSequence.Of(logRatios);
                (low, high) = double.IsInfinity(half)
                    ? (double.NaN, double.NaN)
                    : (Math.Exp(mean - half), Math.Exp(mean + half));
            }
            return new RatioInterval(
                Math.Exp(logRatios.Average()),
                low,
                high,
                baseMeans.Count,
                candMeans.Count,
                true,
                p,
                bootLow,
                bootHigh,
                sequential
            );
        }
        var (wLow, wHigh, wp) = WelchT(
            candMeans.Select(m => Math.Log(m)).ToList(),
            baseMeans.Select(m => Math.Log(m)).ToList()
        );
        var ratio = Math.Exp(
            candMeans.Select(m => Math.Log(m)).Average() - baseMeans.Select(m => Math.Log(m)).Average()
        );
        return new RatioInterval(ratio, wLow, wHigh, baseMeans.Count, candMeans.Count, false, wp, bootLow, bootHigh);
    }

    /// <summary>
    /// The pairs in which one arm measured 0 and the other did not, when every pair is one (a build whose operations all
    /// failed, against one whose did not: its operations/s is 0 in each): the ratio is then exactly 0 (or, the other way
    /// round, infinite) in every pair, so with two pairs or more the interval is that point; with fewer it has none yet
    /// (a budgeted run waits for the second pair). Null for any other mix of zeros. Under A/A, where a harness fault
    /// fails a topology's operations with some chance f, it takes both arms' first two pairs to go that way: f²(1 − f)²,
    /// 0.25 % at f = 5 %; once a pair has the candidate measure something, it can no longer happen.
    /// </summary>
    private static RatioInterval? Zeros(
        List<double> baseMeans,
        List<double> candMeans,
        bool pairs,
        bool sequential,
        double bootLow,
        double bootHigh
    )
    {
        var candidateFailed = candMeans.All(m => m <= 0) && baseMeans.All(m => m > 0);
        var baselineFailed = baseMeans.All(m => m <= 0) && candMeans.All(m => m > 0);
        if (!candidateFailed && !baselineFailed)
        {
            return null;
        }
        var ratio = candidateFailed ? 0 : double.PositiveInfinity;
        var decided = pairs && baseMeans.Count >= 2;
        return new RatioInterval(
            ratio,
            decided ? ratio : double.NaN,
            decided ? ratio : double.NaN,
            baseMeans.Count,
            candMeans.Count,
            pairs,
            double.NaN,
            bootLow,
            bootHigh,
            decided && sequential
        );
    }

    private static RatioInterval NoRatio(
        int baseTopologies,
        int candTopologies,
        bool paired,
        double bootLow,
        double bootHigh
    ) => new(double.NaN, double.NaN, double.NaN, baseTopologies, candTopologies, paired, double.NaN, bootLow, bootHigh);

    /// <summary>exp of the t-interval of the mean of <paramref name="d"/>, and the two-sided p-value of mean 0.</summary>
    private static (double Low, double High, double P) OneSampleT(IReadOnlyList<double> d)
    {
        if (d.Count < 2)
        {
            return (double.NaN, double.NaN, double.NaN);
        }
        return Interval(d.Average(), Math.Sqrt(SampleVariance.Of(d) / d.Count), d.Count - 1);
    }

    /// <summary>exp of Welch's t-interval of mean(x) − mean(y), and the two-sided p-value of no difference.</summary>
    public static (double Low, double High, double P) WelchT(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        if (x.Count < 2 || y.Count < 2)
        {
            return (double.NaN, double.NaN, double.NaN);
        }
        var vx = SampleVariance.Of(x) / x.Count;
        var vy = SampleVariance.Of(y) / y.Count;
        var se = Math.Sqrt(vx + vy);
        var df = SampleVariance.WelchDegreesOfFreedom(vx, x.Count, vy, y.Count);
        return Interval(x.Average() - y.Average(), se, df);
    }

    private static (double Low, double High, double P) Interval(double mean, double se, double df)
    {
        if (se == 0)
        {
            return (Math.Exp(mean), Math.Exp(mean), mean == 0 ? 1 : 0);
        }
        var t = new StudentDistribution(df);
        var q = t.Quantile(new Probability(1 - (1 - Confidence) / 2));
        var p = 2 * (1 - t.Cdf(Math.Abs(mean / se)));
        return (Math.Exp(mean - q * se), Math.Exp(mean + q * se), p);
    }

    /// <summary>Percentile interval of the ratio of means: per resample, topologies with replacement, then each one's iterations with replacement.</summary>
    private static (double Low, double High) Bootstrap(
        IReadOnlyList<IReadOnlyList<double>> baseline,
        IReadOnlyList<IReadOnlyList<double>> candidate,
        int seed
    )
    {
        var b = baseline.Where(t => t.Count > 0).ToList();
        var c = candidate.Where(t => t.Count > 0).ToList();
        if (b.Count < 2 || c.Count < 2)
        {
            return (double.NaN, double.NaN);
        }
        var random = new Random(seed);
        double MeanOf(List<IReadOnlyList<double>> topologies)
        {
            var total = 0.0;
            for (var i = 0; i < topologies.Count; i++)
            {
                var topology = topologies[random.Next(topologies.Count)];
                var sum = 0.0;
                for (var j = 0; j < topology.Count; j++)
                {
                    sum += topology[random.Next(topology.Count)];
                }
                total += sum / topology.Count;
            }
            return total / topologies.Count;
        }
        var ratios = new double[BootstrapResamples];
        for (var r = 0; r < ratios.Length; r++)
        {
            ratios[r] = MeanOf(c) / MeanOf(b);
        }
        Array.Sort(ratios);
        var tail = (1 - Confidence) / 2;
        return (
            ratios[(int)Math.Floor(tail * (ratios.Length - 1))],
            ratios[(int)Math.Ceiling((1 - tail) * (ratios.Length - 1))]
        );
    }
}
