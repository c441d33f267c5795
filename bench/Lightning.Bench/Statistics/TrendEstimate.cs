using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>
/// A series' trend: the Theil–Sen slope (the median of all pairwise slopes, robust to outliers: up to 29 % of the
/// points can be wild without moving it), its 95 % interval from a moving-block bootstrap (consecutive windows of a soak
/// are correlated, so points are resampled in blocks, not one by one), expressed relative to the series' median per
/// unit of x (e.g. "+3.1 % per 10,000 payments"), and a verdict against a practical threshold.
/// </summary>
/// <param name="Slope">Change of y per unit of x (in y's unit).</param>
/// <param name="Relative">Slope × <see cref="Per"/> ÷ median(y), as a fraction (0.031 = +3.1 %).</param>
/// <param name="Per">The x span the relative figures are given per (10,000 payments, 1 hour).</param>
internal sealed record TrendEstimate(
    int Points,
    double Slope,
    double Median,
    double Per,
    double Relative,
    double RelativeLow,
    double RelativeHigh,
    string Verdict
)
{
    public const string Flat = "flat";
    public const string Growing = "growing";
    public const string Shrinking = "shrinking";
    public const string Unknown = "unknown: run longer";

    /// <summary>Theil–Sen needs all pairs; longer series are first binned to this many points (medians of consecutive points).</summary>
    public const int MaxPoints = 120;

    public const int BootstrapResamples = 1000;

    /// <param name="thresholdPercent">The smallest trend that matters, in percent of the median per <paramref name="per"/>.</param>
    /// <param name="confidence">Of the interval the verdict rests on: above 0.95 when one of many series is judged (Bonferroni); more resamples then reach its tails.</param>
    public static TrendEstimate Of(
        IReadOnlyList<double> x,
        IReadOnlyList<double> y,
        double per,
        double thresholdPercent,
        int seed = 1,
        double confidence = 0.95
    ) => Estimate(x, y, per, seed, confidence, (low, high, _) => Judge(low, high, thresholdPercent / 100));

    /// <summary>
    /// As <see cref="Of"/>, judged in y's own units: <paramref name="threshold"/> is the smallest change per
    /// <paramref name="per"/> that matters (e.g. 1 KB of memory per payment), whatever the series' level.
    /// </summary>
    public static TrendEstimate OfAbsolute(
        IReadOnlyList<double> x,
        IReadOnlyList<double> y,
        double per,
        double threshold,
        int seed = 1,
        double confidence = 0.95
    ) => Estimate(x, y, per, seed, confidence, (_, _, slopes) => Judge(slopes.Low * per, slopes.High * per, threshold));

    /// <summary>The slope's interval per unit (<see cref="Per"/>) in y's units.</summary>
    public (double Low, double High) AbsoluteInterval =>
        (RelativeLow * Math.Abs(Median), RelativeHigh * Math.Abs(Median));

    private static string Judge(double low, double high, double threshold) =>
        low >= -threshold && high <= threshold ? Flat
        : low > threshold ? Growing
        : high < -threshold ? Shrinking
        : Unknown;

    private static TrendEstimate Estimate(
        IReadOnlyList<double> x,
        IReadOnlyList<double> y,
        double per,
        int seed,
        double confidence,
        Func<double, double, (double Low, double High), string> judge
    )
    {
        if (x.Count != y.Count)
        {
            throw new ArgumentException("x and y differ in length");
        }
        var points = Bin(x.Zip(y).Where(p => double.IsFinite(p.First) && double.IsFinite(p.Second)).ToList());
        var median = CaseFigures.Percentile(points.Select(p => p.Y).ToList(), 0.5);
        if (points.Count < 3 || median == 0 || points[^1].X == points[0].X)
        {
            return new TrendEstimate(
                points.Count,
                double.NaN,
                median,
                per,
                double.NaN,
                double.NaN,
                double.NaN,
                Unknown
            );
        }
        var slope = TheilSen(points);
        var random = new Random(seed);
        var block = Math.Max(1, (int)Math.Round(Math.Cbrt(points.Count)));
        var resamples = Math.Max(BootstrapResamples, (int)Math.Ceiling(20 / (1 - confidence)));
        var slopes = new double[resamples];
        var resample = new List<(double X, double Y)>(points.Count);
        for (var b = 0; b < resamples; b++)
        {
            resample.Clear();
            while (resample.Count < points.Count)
            {
                var start = random.Next(points.Count - block + 1);
                for (var i = start; i < start + block && resample.Count < points.Count; i++)
                {
                    resample.Add(points[i]);
                }
            }
            slopes[b] = TheilSen(resample);
        }
        var finite = slopes.Where(double.IsFinite).ToList();
        var low = CaseFigures.Percentile(finite, (1 - confidence) / 2);
        var high = CaseFigures.Percentile(finite, 1 - (1 - confidence) / 2);
        double Rel(double s) => s * per / Math.Abs(median);
        var relLow = Rel(low);
        var relHigh = Rel(high);
        return new TrendEstimate(
            points.Count,
            slope,
            median,
            per,
            Rel(slope),
            relLow,
            relHigh,
            judge(relLow, relHigh, (low, high))
        );
    }

    /// <summary>The median of the slopes of all pairs with different x.</summary>
    public static double TheilSen(IReadOnlyList<(double X, double Y)> points)
    {
        var slopes = new double[points.Count * (points.Count - 1) / 2];
        var n = 0;
        for (var i = 0; i < points.Count; i++)
        {
            for (var j = i + 1; j < points.Count; j++)
            {
                var dx = points[j].X - points[i].X;
                if (dx != 0)
                {
                    slopes[n++] = (points[j].Y - points[i].Y) / dx;
                }
            }
        }
        if (n == 0)
        {
            return double.NaN;
        }
        Array.Sort(slopes, 0, n);
        return n % 2 == 1 ? slopes[n / 2] : (slopes[n / 2 - 1] + slopes[n / 2]) / 2;
    }

    private static List<(double X, double Y)> Bin(List<(double X, double Y)> points)
    {
        if (points.Count <= MaxPoints)
        {
            return points;
        }
        var size = (int)Math.Ceiling(points.Count / (double)MaxPoints);
        return points
            .Chunk(size)
            .Select(c =>
                (
                    CaseFigures.Percentile(c.Select(p => p.X).ToList(), 0.5),
                    CaseFigures.Percentile(c.Select(p => p.Y).ToList(), 0.5)
                )
            )
            .ToList();
    }
}
