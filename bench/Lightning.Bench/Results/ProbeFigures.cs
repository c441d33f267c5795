namespace Lightning.Bench.Results;

/// <summary>
/// What the responsiveness probe saw of a case (<see cref="ProbeSample"/>): per measured invocation the slowest answer
/// of any node (the comparisons' "RPC wait"), and per node over the measured invocations its latency percentiles,
/// its slowest answer, and its longest stall: the longest time it answered nothing, from one answer to the next, over
/// the whole case (between invocations too, where a node's own chores run).
/// </summary>
/// <param name="WorstIterationsMs">Per measured invocation with probe answers in it, the slowest answer of any node.</param>
internal sealed record ProbeFigures(
    IReadOnlyList<double> WorstIterationsMs,
    IReadOnlyDictionary<string, ProbeNodeFigures> ByNode
)
{
    public static ProbeFigures? Of(IReadOnlyList<ProbeSample> samples)
    {
        if (samples.Count == 0)
        {
            return null;
        }
        var measured = samples.Where(s => s.Measured && s.Invocation > 0).ToList();
        var worst = measured
            .Where(s => s.Error is null)
            .GroupBy(s => s.Invocation)
            .OrderBy(g => g.Key)
            .Select(g => g.Max(s => s.LatencyMs))
            .ToList();
        var byNode = samples
            .GroupBy(s => s.Node)
            .ToDictionary(
                g => g.Key,
                g =>
                {
                    var answered = g.Where(s => s.Error is null).OrderBy(s => s.StartUnixMicros).ToList();
                    var inMeasured = answered
                        .Where(s => s.Measured && s.Invocation > 0)
                        .Select(s => s.LatencyMs)
                        .Order()
                        .ToList();
                    var ends = answered.Select(s => s.StartUnixMicros / 1000.0 + s.LatencyMs).ToList();
                    var stall = ends.Count < 2 ? double.NaN : ends.Zip(ends.Skip(1), (a, b) => b - a).Max();
                    return new ProbeNodeFigures(
                        g.Count(),
                        g.Count(s => s.Error is not null),
                        CaseFigures.Percentile(inMeasured, 0.5),
                        CaseFigures.Percentile(inMeasured, 0.99),
                        inMeasured.LastOrDefault(double.NaN),
                        stall
                    );
                }
            );
        return new ProbeFigures(worst, byNode);
    }
}

/// <param name="Calls">Probe calls to the node over the case.</param>
/// <param name="Unanswered">Calls it answered with an error or not at all.</param>
/// <param name="P50Ms">Over the calls in measured invocations.</param>
/// <param name="LongestStallMs">The longest time from one answer to the next over the whole case.</param>
internal sealed record ProbeNodeFigures(
    int Calls,
    int Unanswered,
    double P50Ms,
    double P99Ms,
    double MaxMs,
    double LongestStallMs
);
