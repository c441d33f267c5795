using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Tests;

/// <summary>
/// The routes workload's figures split by amount and by top or sampled destination: the table's counts, found shares
/// and latencies from known queries, and the per-amount comparisons (paired by topology, secondary) from known topologies.
/// </summary>
[Trait("Category", "Unit")]
public class RouteAmountsTests
{
    private static readonly DateTimeOffset T0 = new(2026, 11, 29, 12, 0, 0, TimeSpan.Zero);

    private static OperationRecord Query(
        long id,
        long amountSat,
        string destinations,
        double ms,
        OperationOutcome outcome = OperationOutcome.Succeeded,
        bool expected = true
    ) =>
        new(
            "case",
            1,
            id,
            "alice",
            $"graph-{id}",
            T0,
            T0,
            T0.AddTicks((long)(ms * TimeSpan.TicksPerMillisecond)),
            null,
            outcome,
            outcome == OperationOutcome.Failed ? "no route" : null
        )
        {
            AmountMsat = amountSat * 1000,
            Destinations = destinations,
            AsExpected = expected,
        };

    [Fact]
    public void Queries_split_by_amount_then_by_top_and_sampled_destinations_with_their_found_share_and_latencies()
    {
        var queries = new List<OperationRecord>
        {
            // 1,000 sat: two top queries found (10, 30 ms), one sampled without a route (2 ms), one sampled that timed out.
            Query(1, 1_000, "top", 10),
            Query(2, 1_000, "top", 30),
            Query(3, 1_000, "sample", 2, OperationOutcome.Failed),
            Query(4, 1_000, "sample", 60_000, OperationOutcome.Failed, expected: false),
            // 1,000,000 sat: one top query, found in 200 ms.
            Query(5, 1_000_000, "top", 200),
        };

        var rows = RouteAmounts.Of(queries)!;

        Assert.Equal(
            [(1_000L, "all"), (1_000L, "top"), (1_000L, "sample"), (1_000_000L, "all"), (1_000_000L, "top")],
            rows.Select(r => (r.AmountSat, r.Destinations))
        );
        var all = rows[0];
        // The error is counted apart, not in the latencies: three answers, two with a route.
        Assert.Equal((3, 1), (all.Queries, all.Errors));
        Assert.Equal(2.0 / 3, all.FoundShare, 9);
        Assert.Equal(14, all.MeanMs, 6);
        Assert.Equal(10, all.P50Ms, 6);
        Assert.Equal(28, all.P95Ms, 6); // type 7: 10 + 0.9 × (30 − 10)
        Assert.Equal(30, all.MaxMs, 6);
        Assert.Equal((2, 1.0, 20.0), (rows[1].Queries, rows[1].FoundShare, rows[1].MeanMs));
        Assert.Equal((1, 0.0, 2.0, 1), (rows[2].Queries, rows[2].FoundShare, rows[2].MeanMs, rows[2].Errors));
        Assert.Equal((1, 200.0), (rows[3].Queries, rows[3].MaxMs));
        Assert.Equal(
            new Dictionary<long, double> { [1_000] = 14, [1_000_000] = 200 },
            RouteAmounts.MeansByAmount(rows)
        );
        // Operations without a per-operation amount (a payment) have no split.
        Assert.Null(RouteAmounts.Of([Query(6, 1, "top", 1) with { AmountMsat = null }]));
    }

    [Fact]
    public void The_markdown_table_pools_a_cases_topologies_and_names_each_amount()
    {
        var cases = Enumerable
            .Range(1, 2)
            .Select(t =>
            {
                var parameters = new Dictionary<string, string>
                {
                    ["Build"] = "base",
                    ["Concurrency"] = "1",
                    ["Topology"] = $"{t}",
                    ["Traces"] = "on",
                    ["Workload"] = "routes",
                };
                var c = new CaseResults($"Build=base, Concurrency=1, Topology={t}, Traces=on, Workload=routes", 1)
                {
                    Parameters = parameters,
                };
                c.Add(Query(t * 10 + 1, 10_000, "top", 10 * t));
                c.Add(Query(t * 10 + 2, 100_000, "sample", 5, OperationOutcome.Failed));
                c.Complete(0, 1);
                c.Finish(1e6, 0, [1e6]);
                return c;
            })
            .ToList();

        var markdown = RouteAmountReport.Markdown(cases);

        Assert.Contains("**Build=base, Concurrency=1, Traces=on, Workload=routes** (2 topologies)", markdown);
        Assert.Contains("| 10,000 | all | 2 | 100 % | 15.0 | 15.0 | 19.5 | 20.0 | 0 |", markdown);
        Assert.Contains("| 100,000 | sample | 2 | 0 % | 5.0 | 5.0 | 5.0 | 5.0 | 0 |", markdown);
        Assert.Equal("", RouteAmountReport.Markdown([]));
    }

    [Fact]
    public void Each_amount_is_a_secondary_comparison_paired_by_topology()
    {
        // Four pairs: the candidate's 1,000,000 sat queries take twice as long, its 1,000 sat ones the same (±1 %).
        var spread = new[] { 1.00, 1.01, 0.99, 1.005 };
        CaseSummary Case(string build, int t, double small, double large) =>
            CaseSummaries.Of(build, t, [50, 51, 49], succeeded: 10) with
            {
                RoutesByAmount =
                [
                    new RouteAmountFigures(1_000, "all", 5, 1, small, small, small, small, 0),
                    new RouteAmountFigures(1_000_000, "all", 5, 1, large, large, large, large, 0),
                ],
            };
        var cases = Enumerable
            .Range(1, 4)
            .SelectMany(t =>
                new[]
                {
                    Case("base", t, 40 * (1 + 0.1 * t), 100 * (1 + 0.1 * t)),
                    Case("new", t, 40 * (1 + 0.1 * t) * spread[t - 1], 200 * (1 + 0.1 * t) * spread[t - 1]),
                }
            )
            .ToList();

        var comparisons = ArmComparer.Of(cases, ["base", "new"], ["on"], 2, seed: 1).Comparisons;

        var large = Assert.Single(comparisons, c => c.Metric == "query time at 1,000,000 sat");
        Assert.Equal((Verdict.Slower, 4), (large.Verdict, large.Interval.BaselineTopologies));
        Assert.True(large.Interval.Paired);
        Assert.InRange(large.Interval.Ratio, 1.98, 2.02);
        var small = Assert.Single(comparisons, c => c.Metric == "query time at 1,000 sat");
        Assert.InRange(small.Interval.Ratio, 0.99, 1.01);
        Assert.NotEqual(Verdict.Slower, small.Verdict);
        // Secondary: neither a budgeted run nor --fail-on waits for them.
        Assert.All(
            comparisons.Where(c => c.Metric.StartsWith("query time at", StringComparison.Ordinal)),
            c => Assert.False(BudgetedVerdicts.IsPrimary(c))
        );
    }
}
