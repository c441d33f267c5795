namespace Lightning.Bench.Results;

/// <summary>
/// How precise one paired comparison was, and how to buy more precision in the same time. A pair's log ratio varies
/// for two reasons: iteration noise, which more iterations per topology average away, and the topologies themselves
/// (and the machine between them), which only more topologies average away. With each topology's fixed cost (setup,
/// idle window, teardown) and each iteration's, the iterations per topology that give the narrowest interval for the
/// time spent are sqrt(2 σ²within · cost per topology / (σ²pairs · cost per iteration)) (Kalibera and Jones, "Rigorous
/// benchmarking in reasonable time", 2013, for two levels).
/// </summary>
/// <param name="PairSdPercent">Standard deviation of the pairs' log ratios, in %.</param>
/// <param name="IterationNoiseShare">The part of that variance which iteration noise explains (0 to 1).</param>
/// <param name="Iterations">Measured iterations per topology in this run.</param>
/// <param name="SuggestedIterations">Iterations per topology for the narrowest interval per minute; null without costs or variance.</param>
/// <param name="DetectablePercent">The smallest change, the worse way, that an interval this precise calls beyond the threshold 80 % of the time.</param>
internal sealed record ComparisonPrecision(
    double PairSdPercent,
    double IterationNoiseShare,
    int Iterations,
    int? SuggestedIterations,
    double DetectablePercent
)
{
    public const double Power = 0.8;
    public const int MaxSuggestedIterations = 1000;
}
