using Lightning.Bench.Cases;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Tests;

/// <summary>A budgeted run's iterations per topology, per Concurrency, from its own variance components.</summary>
[Trait("Category", "Unit")]
public class IterationPlanTests
{
    private static ArmComparison Compared(string cell, string metric, int? suggested, string candidate = "b") =>
        new(
            "build",
            cell,
            metric,
            "ms",
            "a",
            candidate,
            1,
            1,
            new RatioInterval(1, 0.9, 1.1, 4, 4, true, 0.5, 0.9, 1.1, true),
            Verdict.Unknown,
            new ComparisonPrecision(3, 0.7, 10, suggested, 5)
        )
        {
            CellId = CaseId.Of(cell.Split(", ").Select(p => p.Split('=')).ToDictionary(p => p[0], p => p[1])).Cell,
        };

    [Fact]
    public void A_budgeted_run_waits_for_mean_time_and_rates_unless_told_the_metrics_and_says_when_a_told_one_is_missing()
    {
        var decided = Compared("Concurrency=1", "mean time", null) with { Verdict = Verdict.Same };
        var storage = Compared("Concurrency=1", "storage/attempt", null);
        var rate = Compared("Concurrency=1", "attempts/s", null) with { Verdict = Verdict.Faster };
        var run = new RunComparisons([decided, storage, rate, storage with { Kind = "traces" }], [], 2);

        Assert.Empty(BudgetedVerdicts.Open(run));
        Assert.Equal([storage], BudgetedVerdicts.Open(run, ["storage/attempt"]));
        Assert.Empty(BudgetedVerdicts.Open(run, ["mean time"]));
        Assert.Empty(BudgetedVerdicts.Missing(run, ["storage/attempt", "attempts/s"]));
        Assert.Equal(["storage/payment"], BudgetedVerdicts.Missing(run, ["storage/payment", "mean time"]));
        Assert.Equal(BudgetedVerdicts.AllDecided, BudgetedVerdicts.Settled(run, []));
        Assert.Null(BudgetedVerdicts.Settled(run, ["storage/attempt"]));
        Assert.Equal(BudgetedVerdicts.AllAskedDecided, BudgetedVerdicts.Settled(run, ["attempts/s"]));
        Assert.StartsWith(
            "--decide-on storage/payment: no build verdict",
            BudgetedVerdicts.Settled(run, ["storage/payment"])
        );
    }

    [Fact]
    public void Each_concurrency_takes_the_median_suggestion_for_mean_time_rounded_and_bounded()
    {
        var next = IterationPlan.Next(
            [
                Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 58, "b"),
                Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 23, "c"),
                Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 41, "d"),
                // Other metrics do not count: only mean time sets the iterations.
                Compared("Concurrency=1", ComparisonMetric.Throughput(OperationNoun.Payment).Name, 1000),
                Compared("Concurrency=10", ComparisonMetric.MeanTime.Name, 4),
                Compared("Concurrency=4", ComparisonMetric.MeanTime.Name, 640),
                Compared("Concurrency=7", ComparisonMetric.MeanTime.Name, null),
            ],
            new Dictionary<int, int> { [7] = 25 },
            floor: 10
        );

        Assert.Equal(40, next[1]);
        Assert.Equal(10, next[10]);
        Assert.Equal(IterationPlan.Max, next[4]);
        Assert.Equal(25, next[7]);
    }

    [Theory]
    [InlineData("Concurrency=1", 1)]
    [InlineData("Concurrency=10, CarolsCount=2", 10)]
    [InlineData("CarolsCount=2, Concurrency=4", 4)]
    [InlineData("AliceCount=3", null)]
    [InlineData("MyConcurrency=3", null)]
    public void A_cell_names_its_concurrency(string cell, int? expected) =>
        Assert.Equal(
            expected,
            CaseId.Of(cell.Split(", ").Select(p => p.Split('=')).ToDictionary(p => p[0], p => p[1])).Cell.Concurrency
        );

    [Fact]
    public void One_benchmark_run_measures_each_concurrency_with_its_own_iterations()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 1, iterations: 3, new Dictionary<int, int> { [1] = 7 });

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(jobs, filter);

        Assert.Equal(2, summary.Reports.Length);
        var measured = summary.Reports.ToDictionary(
            r => (int)r.BenchmarkCase.Parameters["Concurrency"],
            r =>
                r.AllMeasurements.Count(m =>
                    m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload
                    && m.IterationStage == BenchmarkDotNet.Engines.IterationStage.Actual
                )
        );
        Assert.Equal(7, measured[1]);
        Assert.Equal(3, measured[10]);
        Assert.NotNull(filter);
    }

    /// <summary>Alternating arms: a case makes no warmups (its group made them) and its share of each topology's invocations, rounded up.</summary>
    [Fact]
    public void Alternating_arms_split_a_topologys_iterations_over_their_cases_without_warmups()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(
            warmups: 2,
            iterations: 5,
            new Dictionary<int, int> { [1] = 7 },
            alternatingArms: 2
        );

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(jobs, filter);

        int Count(BenchmarkDotNet.Reports.BenchmarkReport r, BenchmarkDotNet.Engines.IterationStage stage) =>
            r.AllMeasurements.Count(m =>
                m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload && m.IterationStage == stage
            );
        var reports = summary.Reports.ToDictionary(r => (int)r.BenchmarkCase.Parameters["Concurrency"]);
        Assert.Equal(4, Count(reports[1], BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.Equal(3, Count(reports[10], BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.All(reports.Values, r => Assert.Equal(0, Count(r, BenchmarkDotNet.Engines.IterationStage.Warmup)));
        Assert.All(
            BenchConfig.CaseJobs(2, 5, new Dictionary<int, int> { [1] = 7 }, alternatingArms: 1).Jobs,
            j => Assert.Equal(2, j.Run.WarmupCount)
        );
    }

    [Fact]
    public void With_one_count_the_run_has_the_one_job_and_no_filter()
    {
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 1, iterations: 10, new Dictionary<int, int> { [1] = 10 });
        Assert.Single(jobs);
        Assert.Null(filter);
        Assert.Equal("lnbench", jobs[0].Id);
    }

    /// <summary>A budgeted run's later rounds measure only the cells whose turn it is, at their next topology: the other Concurrency's cases do not run.</summary>
    [Fact]
    public void A_round_measures_only_the_cells_still_open_with_their_own_iterations()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 0, iterations: 3, new Dictionary<int, int> { [1] = 5 });

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(
            jobs,
            BenchConfig.OnlyCells(filter, new Dictionary<string, int> { ["Concurrency=1"] = 1 })
        );

        var report = Assert.Single(summary.Reports);
        Assert.Equal(1, (int)report.BenchmarkCase.Parameters["Concurrency"]);
        Assert.Equal(
            5,
            report.AllMeasurements.Count(m =>
                m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload
                && m.IterationStage == BenchmarkDotNet.Engines.IterationStage.Actual
            )
        );
        Assert.DoesNotContain(10, ConcurrencyIterationsBenchmark.Invocations);
        // Every cell when no set is given: the filter is the one the jobs need, untouched.
        Assert.Same(filter, BenchConfig.OnlyCells(filter, null));
    }

    [Fact]
    public void The_budget_section_says_which_cases_stopped_getting_pairs_and_when()
    {
        BudgetRound Round(int round, int pairs, params string[] cells) =>
            new(round, pairs, 60 * round, cells.Length) { Cells = cells };
        var rounds = new[]
        {
            Round(1, 4, "Concurrency=1", "Concurrency=10"),
            Round(2, 5, "Concurrency=1", "Concurrency=10"),
            Round(3, 6, "Concurrency=1"),
            Round(4, 7, "Concurrency=1"),
        };

        BudgetVerdict[] verdicts =
        [
            new("Concurrency=1", ComparisonMetric.MeanTime.Name, "b", Verdict.Same, 7),
            new("Concurrency=10", ComparisonMetric.MeanTime.Name, "b", Verdict.Slower, 5),
        ];
        Assert.Equal(
            "Concurrency=10 after round 2 (5 pairs)",
            Lightning.Bench.Reports.ComparisonReport.CellsStopped(rounds, verdicts)
        );
        // A cell left out of the last rounds by its share of the time, its verdict still open, did not stop.
        Assert.Null(
            Lightning.Bench.Reports.ComparisonReport.CellsStopped(
                rounds,
                [verdicts[0], verdicts[1] with { Verdict = Verdict.Unknown }]
            )
        );
        var markdown = Lightning.Bench.Reports.ComparisonReport.BudgetMarkdown(
            new BudgetReport(600, rounds, BudgetedVerdicts.AllDecided, verdicts)
        );
        Assert.Contains("## Budget: up to 7 pairs per case in 4 of 10 min, 4 round(s)", markdown);
        Assert.Contains(
            "Cases whose verdicts were decided got no more pairs: Concurrency=10 after round 2 (5 pairs).",
            markdown
        );
        // Every round on every cell: nothing to say, and the pairs are every case's.
        Assert.Null(Lightning.Bench.Reports.ComparisonReport.CellsStopped(rounds[..2], verdicts));
        Assert.Contains(
            "## Budget: 5 pairs per case",
            Lightning.Bench.Reports.ComparisonReport.BudgetMarkdown(
                new BudgetReport(600, rounds[..2], "the budget", [])
            )
        );
    }

    /// <summary>
    /// The open cases share the time, not the pairs: a case whose pairs cost three times another's gets a pair when the
    /// cheap one has caught up with its time, then one every third round; the budget's tail goes to what still fits.
    /// </summary>
    [Fact]
    public void Open_cases_take_turns_by_the_time_they_took_and_the_budgets_tail_goes_to_what_fits()
    {
        // Round 1 gave both 4 pairs: Concurrency=1 took 60 s (15 s a pair), Concurrency=10 180 s (45 s a pair).
        var spend = new Dictionary<string, (int Pairs, double Seconds)>
        {
            ["Concurrency=1"] = (4, 60),
            ["Concurrency=10"] = (4, 180),
        };
        var elapsed = 270.0;
        var turns = new List<string>();
        while (true)
        {
            var next = BudgetedVerdicts.NextCells(
                spend.Select(s => new CellSpend(s.Key, s.Value.Pairs, s.Value.Seconds)).ToList(),
                elapsed,
                600,
                overheadSeconds: 2
            );
            if (next.Count == 0)
            {
                break;
            }
            turns.Add(string.Join("+", next.Select(c => c == "Concurrency=1" ? "1" : "10")));
            foreach (var cell in next)
            {
                var cost = cell == "Concurrency=1" ? 15 : 45;
                spend[cell] = (spend[cell].Pairs + 1, spend[cell].Seconds + cost);
                elapsed += cost;
            }
            elapsed += 2;
        }

        // Seven pairs of the cheap case bring it within a pair of the dear one's 180 s; then both, then the cheap one
        // alone twice, both…; at the end only the cheap one's pairs still fit.
        Assert.Equal(["1", "1", "1", "1", "1", "1", "1", "1+10", "1", "1", "1+10", "1", "1", "1"], turns);
        Assert.True(elapsed <= 600, $"ended at {elapsed} s");
        Assert.InRange(spend["Concurrency=1"].Seconds - spend["Concurrency=10"].Seconds, -45, 45);
        // Nothing fits: no cell; a single open cell takes every round.
        Assert.Empty(BudgetedVerdicts.NextCells([new CellSpend("Concurrency=1", 4, 60)], 590, 600, 2));
        Assert.Equal(
            ["Concurrency=1"],
            BudgetedVerdicts.NextCells([new CellSpend("Concurrency=1", 4, 60)], 100, 600, 2)
        );
    }

    /// <summary>A cell's time is the union of its topologies' windows: alternating arms live at once count once, arms one after another add up.</summary>
    [Fact]
    public void A_cases_time_counts_arms_live_at_once_once_and_its_pairs_need_every_arm()
    {
        var t0 = DateTimeOffset.Parse("2026-11-24T00:00:00Z", System.Globalization.CultureInfo.InvariantCulture);
        Results.CaseResults Case(
            string build,
            int concurrency,
            int topology,
            double from,
            double? to,
            bool finished = true
        )
        {
            var c = new Results.CaseResults(
                $"Build={build}, Concurrency={concurrency}, Topology={topology}",
                concurrency
            )
            {
                Parameters = new Dictionary<string, string>
                {
                    ["Build"] = build,
                    ["Concurrency"] = $"{concurrency}",
                    ["Topology"] = $"{topology}",
                },
                Topology = new Results.CaseRecord(
                    "k",
                    "p",
                    new Dictionary<string, string>(),
                    new Dictionary<string, string>(),
                    t0.AddSeconds(from),
                    to is { } end ? t0.AddSeconds(end) : null
                ),
            };
            if (finished)
            {
                c.Finish(50e6, 1e6, [49e6, 51e6]);
            }
            return c;
        }
        var cases = new[]
        {
            // Concurrency=1, alternating: both arms of a pair up together (0–15 s, 16–30 s).
            Case("a", 1, 1, 0, 15),
            Case("b", 1, 1, 0.5, 14.5),
            Case("a", 1, 2, 16, 30),
            Case("b", 1, 2, 16, 30),
            // Concurrency=10, one arm after the other (40–60, 60–85 s), and a third pair whose second arm never finished.
            Case("a", 10, 1, 40, 60),
            Case("b", 10, 1, 60, 85),
            Case("a", 10, 2, 90, 100),
            Case("b", 10, 2, 100, 101, finished: false),
            // A fourth pair still ending (behind the next round's setup): its time runs until now, 110 s.
            Case("a", 10, 4, 104, null),
            Case("b", 10, 4, 105, null),
        };

        var spend = BudgetedVerdicts
            .Spend(cases, ["Concurrency=1", "Concurrency=10", "Concurrency=4"], t0.AddSeconds(110))
            .ToDictionary(s => s.Cell);

        Assert.Equal(2, spend["Concurrency=1"].Pairs);
        Assert.Equal(29, spend["Concurrency=1"].Seconds, 6);
        Assert.Equal(2, spend["Concurrency=10"].Pairs);
        Assert.Equal(62, spend["Concurrency=10"].Seconds, 6);
        Assert.Equal(0, spend["Concurrency=4"].Pairs);
    }
}
