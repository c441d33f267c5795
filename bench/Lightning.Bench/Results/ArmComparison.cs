namespace Lightning.Bench.Results;

/// <summary>One comparison of a run: a candidate arm against its baseline in one cell, on one metric, with its verdict.</summary>
/// <param name="Kind">"build" (another build, same trace mode) or "traces" (a trace mode against Traces=off, same build).</param>
/// <param name="BaselineMean">Mean over the baseline's topologies of their means.</param>
/// <param name="Precision">What the interval's width came from and what would narrow it (paired comparisons only).</param>
internal sealed record ArmComparison(
    string Kind,
    string Cell,
    string Metric,
    string Unit,
    string Baseline,
    string Candidate,
    double BaselineMean,
    double CandidateMean,
    RatioInterval Interval,
    string Verdict,
    ComparisonPrecision? Precision = null
)
{
    /// <summary>The cell, typed (<see cref="Cell"/> is its label, as files keep it); null for a comparison read back from a file.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public CellId? CellId { get; init; }

    /// <summary>The threshold the verdict was read against, in % (each metric has its own; absent in runs before that).</summary>
    public double? ThresholdPercent { get; init; }
}
