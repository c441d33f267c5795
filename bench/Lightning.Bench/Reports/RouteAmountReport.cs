using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// A routes run's queries by amount (upstream reports pathfinding per amount, and amounts behave differently): one
/// table per case (its topologies pooled), a row per amount for all destinations and for the top and the sampled ones,
/// with the queries the pathfinder answered, the share it found a route for, and the mean, p50, p95 and largest
/// latency of its answers. route-amounts.png plots them per build; the comparisons judge each amount's mean time.
/// </summary>
internal static class RouteAmountReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases)
    {
        var groups = cases
            .Where(c => c.Figures?.RoutesByAmount is not null)
            .GroupBy(c => c.Id.KeyWithout(CaseId.TopologyName), StringComparer.Ordinal)
            .ToList();
        if (groups.Count == 0)
        {
            return "";
        }
        var text = new StringBuilder();
        text.AppendLine("## Route queries by amount");
        text.AppendLine();
        text.AppendLine(
            "Each case's measured queries, its topologies pooled: answered is what the pathfinder answered (a route found or its reason none fits; errors such as a timeout are counted apart), found the share with a route; latencies are of the answers. `top`: the graph's nodes with the most channels; `sample`: the seeded others."
        );
        text.AppendLine();
        foreach (var group in groups)
        {
            var rows = RouteAmounts.Of(group.SelectMany(c => c.Counted)) ?? [];
            text.AppendLine($"**{group.Key}** ({group.Count()} topologies)");
            text.AppendLine();
            text.AppendLine(
                "| amount (sat) | destinations | answered | found | mean ms | p50 ms | p95 ms | max ms | errors |"
            );
            text.AppendLine("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
            foreach (var r in rows)
            {
                text.AppendLine(
                    $"| {r.AmountSat.ToString("N0", CultureInfo.InvariantCulture)} | {r.Destinations} | {r.Queries} | {F(r.FoundShare * 100, "0")} % | {F(r.MeanMs, "0.0")} | {F(r.P50Ms, "0.0")} | {F(r.P95Ms, "0.0")} | {F(r.MaxMs, "0.0")} | {r.Errors} |"
                );
            }
            text.AppendLine();
        }
        return text.ToString();
    }

    private static string F(double value, string format) =>
        double.IsFinite(value) ? value.ToString(format, CultureInfo.InvariantCulture) : "-";
}
