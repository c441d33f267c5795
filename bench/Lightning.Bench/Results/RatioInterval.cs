namespace Lightning.Bench.Results;

/// <summary>
/// A candidate against a baseline on one metric, over fresh topologies: the ratio, its confidence interval, how many
/// topologies (or pairs) it rests on and how the interval was made.
/// </summary>
/// <param name="Ratio">Candidate over baseline: the geometric mean of the per-topology ratios (paired) or of the topology means (unpaired).</param>
/// <param name="PValue">The test of "no difference" on the log scale (paired t, or Welch's t across runs); NaN with too few topologies.</param>
/// <param name="BootstrapLow">The hierarchical bootstrap's interval (topologies, then iterations within them) of the ratio of means, as a cross-check.</param>
/// <param name="Sequential">The interval is an anytime-valid confidence sequence (a budgeted run, looked at after every pair), not a fixed-size t-interval.</param>
internal sealed record RatioInterval(
    double Ratio,
    double Low,
    double High,
    int BaselineTopologies,
    int CandidateTopologies,
    bool Paired,
    double PValue,
    double BootstrapLow,
    double BootstrapHigh,
    bool Sequential = false
)
{
    /// <summary>The confidence of every interval a comparison gives (95 %).</summary>
    public const double Confidence = 0.95;

    public bool HasInterval => !double.IsNaN(Low) && !double.IsNaN(High);
}
