namespace Lightning.Bench.Results;

/// <summary>
/// Route queries at one amount to one group of destinations ("all", "top": the graph's nodes with the most channels,
/// "sample": the seeded others), as the pathfinder answered them: how many it answered, what share it found a route
/// for, and its latency over those answers (found or not: both are its answer; errors such as a timeout are counted apart).
/// </summary>
internal sealed record RouteAmountFigures(
    long AmountSat,
    string Destinations,
    int Queries,
    double FoundShare,
    double MeanMs,
    double P50Ms,
    double P95Ms,
    double MaxMs,
    int Errors
);

/// <summary>A routes case's figures split by amount, and by top or sampled destination: upstream reports pathfinding per amount.</summary>
internal static class RouteAmounts
{
    public const string All = "all";
    public const string Top = "top";
    public const string Sample = "sample";

    /// <summary>
    /// Per amount (ascending), all destinations, then the top ones, then the sampled; null when the operations carry
    /// no per-operation amount (every workload but routes).
    /// </summary>
    public static IReadOnlyList<RouteAmountFigures>? Of(IEnumerable<OperationRecord> operations)
    {
        var queries = operations.Where(o => o.AmountMsat is not null && o.Destinations is not null).ToList();
        if (queries.Count == 0)
        {
            return null;
        }
        var rows = new List<RouteAmountFigures>();
        foreach (var amount in queries.GroupBy(q => q.AmountMsat!.Value / 1000).OrderBy(g => g.Key))
        {
            rows.Add(Row(amount.Key, All, amount.ToList()));
            foreach (var group in new[] { Top, Sample })
            {
                var of = amount.Where(q => q.Destinations == group).ToList();
                if (of.Count > 0)
                {
                    rows.Add(Row(amount.Key, group, of));
                }
            }
        }
        return rows;
    }

    /// <summary>The mean latency of the answered queries at each amount, all destinations (what the per-amount comparisons pair by topology).</summary>
    public static IReadOnlyDictionary<long, double> MeansByAmount(IReadOnlyList<RouteAmountFigures>? rows) =>
        rows?.Where(r => r.Destinations == All && r.Queries > 0).ToDictionary(r => r.AmountSat, r => r.MeanMs)
        ?? new Dictionary<long, double>();

    private static RouteAmountFigures Row(long amountSat, string destinations, IReadOnlyList<OperationRecord> queries)
    {
        var answered = queries.Where(q => q.AsExpected).ToList();
        var latencies = answered.Select(q => q.LatencyMs).Order().ToList();
        return new RouteAmountFigures(
            amountSat,
            destinations,
            answered.Count,
            answered.Count == 0
                ? double.NaN
                : (double)answered.Count(q => q.Outcome == OperationOutcome.Succeeded) / answered.Count,
            latencies.Count == 0 ? double.NaN : latencies.Average(),
            CaseFigures.Percentile(latencies, 0.50),
            CaseFigures.Percentile(latencies, 0.95),
            latencies.LastOrDefault(double.NaN),
            queries.Count - answered.Count
        );
    }
}
