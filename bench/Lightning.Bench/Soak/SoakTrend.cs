using Lightning.Bench.Statistics;

namespace Lightning.Bench.Soak;

/// <summary>One trend of the report: the series, its unit of x, and the estimate.</summary>
internal sealed record SoakTrend(string Series, string Per, TrendEstimate Estimate)
{
    /// <summary>Set when the trend is told in the series' own unit per <see cref="Per"/> (KB per payment), not in percent of its median.</summary>
    public string? Unit { get; init; }

    /// <summary>A verdict other than the estimate's own (memory warming up, a database growing with its history).</summary>
    public string? Judged { get; init; }

    public string Verdict => Judged ?? Estimate.Verdict;

    /// <summary>A judgement in the series' own unit: the whole's estimate, its verdict.</summary>
    public static SoakTrend Of(string series, string per, string unit, GrowthJudgement growth) =>
        new(series, per, growth.Whole) { Unit = unit, Judged = growth.Verdict };
}
