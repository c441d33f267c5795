namespace Lightning.Bench.Results;

/// <summary>
/// Every comparison a run makes, from the results model: each build against the first build (same trace mode), each
/// trace mode against Traces=off (same build), in every cell, on every metric, with topologies as the unit.
/// </summary>
internal sealed record RunComparisons(
    IReadOnlyList<ArmComparison> Comparisons,
    IReadOnlyList<ArmSpread> Spreads,
    double ThresholdPercent
)
{
    /// <summary>A budgeted run's rounds, why it stopped and what its open verdicts would need (--max-time); null otherwise.</summary>
    public BudgetReport? Budget { get; init; }

    /// <summary>How many comparisons could say slower or faster by chance if nothing changed (at most 5 % of them).</summary>
    public double ExpectedByChance => Comparisons.Count(c => c.Interval.HasInterval) * (1 - RatioInterval.Confidence);
}
