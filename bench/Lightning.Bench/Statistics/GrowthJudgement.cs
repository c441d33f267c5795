namespace Lightning.Bench.Statistics;

/// <summary>
/// Memory and storage judged in their own units per payment, with the shape of their curve, where a relative trend per
/// hour misleads: a node's memory that fills its caches rises steeply in the first minutes and then levels off (a
/// short soak extrapolated to an hour calls that a leak), and its database grows with every payment it records, by
/// design. The series is split at the middle of its x: the whole and its last half are each estimated
/// (<see cref="TrendEstimate.OfAbsolute"/>).
/// </summary>
/// <param name="Whole">The trend over the whole series given (a soak's steady part).</param>
/// <param name="LastHalf">The trend over its second half only.</param>
internal sealed record GrowthJudgement(TrendEstimate Whole, TrendEstimate LastHalf, string Verdict)
{
    /// <summary>It grew, but its last half no longer grows beyond the threshold and grows clearly slower than the whole.</summary>
    public const string WarmingUp = "warming up: run longer";

    /// <summary>A database that grows by a steady amount per payment: what recording each payment costs.</summary>
    public const string WithHistory = "grows with its history";

    /// <summary>A database that grew per payment surely faster in its second half than in its first, and by half again at least.</summary>
    public const string Accelerating = "accelerating";

    /// <summary>
    /// Memory: <see cref="TrendEstimate.Growing"/> only when the last half grows beyond <paramref name="threshold"/> on
    /// its own (a leak keeps growing at the same pace; warm-up slows down), so a call needs the last half to hold enough
    /// windows to bound its slope; <see cref="WarmingUp"/> when the whole grew and the last half clearly slowed.
    /// </summary>
    public static GrowthJudgement Memory(IReadOnlyList<double> x, IReadOnlyList<double> y, double per, double threshold)
    {
        var whole = TrendEstimate.OfAbsolute(x, y, per, threshold);
        var (lastX, lastY) = Half(x, y, last: true);
        var last = TrendEstimate.OfAbsolute(lastX, lastY, per, threshold);
        var verdict =
            last.Verdict == TrendEstimate.Growing ? TrendEstimate.Growing
            : whole.Verdict != TrendEstimate.Growing ? whole.Verdict
            : last.Verdict is TrendEstimate.Flat or TrendEstimate.Shrinking || High(last) < Low(whole) ? WarmingUp
            : TrendEstimate.Unknown;
        return new GrowthJudgement(whole, last, verdict);
    }

    /// <summary>
    /// Storage that records every payment: <see cref="WithHistory"/> when it grows at a steady rate (the figure is what a
    /// payment costs), <see cref="Accelerating"/> when the second half's rate is surely above the first's (their intervals
    /// apart) and by half again at least (a payment costs more the more history there is), flat or shrinking as the whole is.
    /// </summary>
    public static GrowthJudgement Storage(IReadOnlyList<double> x, IReadOnlyList<double> y, double per)
    {
        var whole = TrendEstimate.OfAbsolute(x, y, per, threshold: 0);
        var (firstX, firstY) = Half(x, y, last: false);
        var (lastX, lastY) = Half(x, y, last: true);
        var first = TrendEstimate.OfAbsolute(firstX, firstY, per, threshold: 0);
        var last = TrendEstimate.OfAbsolute(lastX, lastY, per, threshold: 0);
        var verdict =
            whole.Verdict != TrendEstimate.Growing ? whole.Verdict
            : double.IsFinite(High(first)) && Low(last) > High(first) && last.Slope > 1.5 * first.Slope ? Accelerating
            : WithHistory;
        return new GrowthJudgement(whole, last, verdict);
    }

    private static double Low(TrendEstimate e) => e.AbsoluteInterval.Low;

    private static double High(TrendEstimate e) => e.AbsoluteInterval.High;

    /// <summary>The points in the first or last half of x's range.</summary>
    private static (List<double> X, List<double> Y) Half(IReadOnlyList<double> x, IReadOnlyList<double> y, bool last)
    {
        var finite = x.Where(double.IsFinite).ToList();
        if (finite.Count == 0)
        {
            return ([], []);
        }
        var middle = (finite.Min() + finite.Max()) / 2;
        var chosen = x.Zip(y)
            .Where(p => double.IsFinite(p.First) && (last ? p.First >= middle : p.First <= middle))
            .ToList();
        return (chosen.Select(p => p.First).ToList(), chosen.Select(p => p.Second).ToList());
    }
}
