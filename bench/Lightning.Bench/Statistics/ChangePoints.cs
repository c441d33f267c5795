namespace Lightning.Bench.Statistics;

/// <summary>A step in a series: the first index after it, the means before and after, and its significance.</summary>
/// <param name="Index">The first element of the new segment.</param>
internal sealed record ChangePoint(int Index, double Before, double After, double PValue)
{
    /// <summary>After over before, less one (0.05: 5 % higher after).</summary>
    public double RelativeChange => After / Before - 1;
}

/// <summary>
/// Where a history of a metric stepped: E-divisive with means (Matteson and James 2014) by binary segmentation, with a
/// Welch t-test deciding each split instead of the permutation test, as Apache Otava (formerly Hunter) and MongoDB do
/// on CI performance series: deterministic, so the same history always shows the same steps.
/// <para>
/// Each round takes a segment, finds the split that maximises the energy statistic q̂ (how far apart the values on the
/// two sides are, against how far apart they are within each side; it sees a change of distribution, not only of
/// mean), and keeps it when the two sides' means differ at p &lt; <see cref="DefaultPValue"/> (Welch, on the log
/// values: steps are relative). Segments are split again until no split is kept. A split leaves at least
/// <see cref="MinSegment"/> runs on each side, so one odd run is an outlier, not a step.
/// </para>
/// </summary>
internal static class ChangePoints
{
    public const int MinSegment = 3;

    /// <summary>
    /// The significance a split needs. With several splits tried per history the false-alarm rate per history is higher
    /// than this; the unit tests measure it: 38 of 1000 histories of 40 runs without a step (3 % run-to-run spread) show
    /// one, and a 5 % step at run 20 is found within a run of its place in 707 of 1000.
    /// </summary>
    public const double DefaultPValue = 0.001;

    public static IReadOnlyList<ChangePoint> Find(IReadOnlyList<double> values, double pValue = DefaultPValue)
    {
        if (values.Any(v => !(v > 0)))
        {
            throw new ArgumentException(
                "change points are found on positive values (times, rates, counts)",
                nameof(values)
            );
        }
        var logs = values.Select(v => Math.Log(v)).ToArray();
        var found = new List<ChangePoint>();
        var segments = new Stack<(int Start, int End)>();
        segments.Push((0, logs.Length));
        while (segments.TryPop(out var segment))
        {
            var (start, end) = segment;
            if (end - start < 2 * MinSegment || BestSplit(logs, start, end) is not { } split)
            {
                continue;
            }
            var p = TopologyComparison.WelchT(logs[start..split], logs[split..end]).P;
            if (p >= pValue)
            {
                continue;
            }
            found.Add(
                new ChangePoint(split, Math.Exp(logs[start..split].Average()), Math.Exp(logs[split..end].Average()), p)
            );
            segments.Push((start, split));
            segments.Push((split, end));
        }
        // Each step's means over its neighbouring segments, not the segment it was first found in.
        var cuts = found.Select(c => c.Index).Order().ToList();
        return cuts.Select(
                (cut, k) =>
                {
                    var from = k == 0 ? 0 : cuts[k - 1];
                    var to = k == cuts.Count - 1 ? logs.Length : cuts[k + 1];
                    return new ChangePoint(
                        cut,
                        Math.Exp(logs[from..cut].Average()),
                        Math.Exp(logs[cut..to].Average()),
                        found.Single(c => c.Index == cut).PValue
                    );
                }
            )
            .ToList();
    }

    /// <summary>The split of logs[start..end) with the largest q̂ (at least <see cref="MinSegment"/> each side), or null.</summary>
    public static int? BestSplit(IReadOnlyList<double> x, int start, int end)
    {
        int? best = null;
        var bestQ = double.NegativeInfinity;
        for (var tau = start + MinSegment; tau <= end - MinSegment; tau++)
        {
            var q = EnergyStatistic(x, start, tau, end);
            if (q > bestQ)
            {
                (best, bestQ) = (tau, q);
            }
        }
        return best;
    }

    /// <summary>q̂ = mn/(m+n) · (2 mean|a−b| − mean|a−a'| − mean|b−b'|) of a = x[start..tau), b = x[tau..end).</summary>
    public static double EnergyStatistic(IReadOnlyList<double> x, int start, int tau, int end)
    {
        int m = tau - start,
            n = end - tau;
        double between = 0,
            withinA = 0,
            withinB = 0;
        for (var i = start; i < tau; i++)
        {
            for (var j = tau; j < end; j++)
            {
                between += Math.Abs(x[i] - x[j]);
            }
            for (var k = i + 1; k < tau; k++)
            {
                withinA += Math.Abs(x[i] - x[k]);
            }
        }
        for (var j = tau; j < end; j++)
        {
            for (var k = j + 1; k < end; k++)
            {
                withinB += Math.Abs(x[j] - x[k]);
            }
        }
        var e =
            2 * between / (m * n)
            - (m > 1 ? withinA / (m * (m - 1) / 2.0) : 0)
            - (n > 1 ? withinB / (n * (n - 1) / 2.0) : 0);
        return (double)m * n / (m + n) * e;
    }
}
