using Lightning.Bench.Run;
using Lightning.Bench.Statistics;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests;

/// <summary>A budgeted run's iterations per topology, per Concurrency, from its own variance components.</summary>
[Trait("Category", "Unit")]
public class IterationPlanTests
{
    private static ArmComparison Compared(string cell, string metric, int? suggested, string candidate = "b") =>
        new("build", cell, metric, "ms", "a", candidate, 1, 1, new RatioInterval(1, 0.9, 1.1, 4, 4, true, 0.5, 0.9, 1.1, true), Verdict.Unknown,
            new ComparisonPrecision(3, 0.7, 10, suggested, 5));

    [Fact]
    public void Each_concurrency_takes_the_median_suggestion_for_mean_time_rounded_and_bounded()
    {
        var next = IterationPlan.Next(
        [
            Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 58, "b"),
            Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 23, "c"),
            Compared("Concurrency=1", ComparisonMetric.MeanTime.Name, 41, "d"),
            // Other metrics do not count: only mean time sets the iterations.
            Compared("Concurrency=1", ComparisonMetric.Throughput.Name, 1000),
            Compared("Concurrency=10", ComparisonMetric.MeanTime.Name, 4),
            Compared("Concurrency=4", ComparisonMetric.MeanTime.Name, 640),
            Compared("Concurrency=7", ComparisonMetric.MeanTime.Name, null),
        ], new Dictionary<int, int> { [7] = 25 }, floor: 10);

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
    public void A_cell_names_its_concurrency(string cell, int? expected) => Assert.Equal(expected, IterationPlan.ConcurrencyOf(cell));

    [Fact]
    public void One_benchmark_run_measures_each_concurrency_with_its_own_iterations()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 1, iterations: 3, new Dictionary<int, int> { [1] = 7 });

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(jobs, filter);

        Assert.Equal(2, summary.Reports.Length);
        var measured = summary.Reports.ToDictionary(r => (int)r.BenchmarkCase.Parameters["Concurrency"], r => r.AllMeasurements.Count(m =>
            m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload && m.IterationStage == BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.Equal(7, measured[1]);
        Assert.Equal(3, measured[10]);
        Assert.NotNull(filter);
    }

    /// <summary>Alternating arms: a case makes no warmups (its group made them) and its share of each topology's invocations, rounded up.</summary>
    [Fact]
    public void Alternating_arms_split_a_topologys_iterations_over_their_cases_without_warmups()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 2, iterations: 5, new Dictionary<int, int> { [1] = 7 }, alternatingArms: 2);

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(jobs, filter);

        int Count(BenchmarkDotNet.Reports.BenchmarkReport r, BenchmarkDotNet.Engines.IterationStage stage) => r.AllMeasurements.Count(m =>
            m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload && m.IterationStage == stage);
        var reports = summary.Reports.ToDictionary(r => (int)r.BenchmarkCase.Parameters["Concurrency"]);
        Assert.Equal(4, Count(reports[1], BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.Equal(3, Count(reports[10], BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.All(reports.Values, r => Assert.Equal(0, Count(r, BenchmarkDotNet.Engines.IterationStage.Warmup)));
        Assert.All(BenchConfig.CaseJobs(2, 5, new Dictionary<int, int> { [1] = 7 }, alternatingArms: 1).Jobs, j => Assert.Equal(2, j.Run.WarmupCount));
    }

    [Fact]
    public void With_one_count_the_run_has_the_one_job_and_no_filter()
    {
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 1, iterations: 10, new Dictionary<int, int> { [1] = 10 });
        Assert.Single(jobs);
        Assert.Null(filter);
        Assert.Equal("lnbench", jobs[0].Id);
    }

    /// <summary>A budgeted run's later rounds measure only the cells with a verdict open: the other Concurrency's cases do not run.</summary>
    [Fact]
    public void A_round_measures_only_the_cells_still_open_with_their_own_iterations()
    {
        ConcurrencyIterationsBenchmark.Invocations.Clear();
        var (jobs, filter) = BenchConfig.CaseJobs(warmups: 0, iterations: 3, new Dictionary<int, int> { [1] = 5 });

        var summary = BenchmarkDotNetRun.Run<ConcurrencyIterationsBenchmark>(jobs, BenchConfig.OnlyCells(filter, new HashSet<string> { "Concurrency=1" }));

        var report = Assert.Single(summary.Reports);
        Assert.Equal(1, (int)report.BenchmarkCase.Parameters["Concurrency"]);
        Assert.Equal(5, report.AllMeasurements.Count(m => m.IterationMode == BenchmarkDotNet.Engines.IterationMode.Workload
            && m.IterationStage == BenchmarkDotNet.Engines.IterationStage.Actual));
        Assert.DoesNotContain(10, ConcurrencyIterationsBenchmark.Invocations);
        // Every cell when no set is given: the filter is the one the jobs need, untouched.
        Assert.Same(filter, BenchConfig.OnlyCells(filter, null));
    }

    [Fact]
    public void The_budget_section_says_which_cases_stopped_getting_pairs_and_when()
    {
        BudgetRound Round(int round, int pairs, params string[] cells) => new(round, pairs, 60 * round, cells.Length) { Cells = cells };
        var rounds = new[]
        {
            Round(1, 4, "Concurrency=1", "Concurrency=10"),
            Round(2, 5, "Concurrency=1", "Concurrency=10"),
            Round(3, 6, "Concurrency=1"),
            Round(4, 7, "Concurrency=1"),
        };

        Assert.Equal("Concurrency=10 after round 2 (5 pairs)", Lightning.Bench.Reports.ComparisonReport.CellsStopped(rounds));
        var markdown = Lightning.Bench.Reports.ComparisonReport.BudgetMarkdown(new BudgetReport(600, rounds, BudgetedVerdicts.AllDecided, []));
        Assert.Contains("## Budget: up to 7 pairs per case in 4 of 10 min, 4 round(s)", markdown);
        Assert.Contains("Cases whose verdicts were decided got no more pairs: Concurrency=10 after round 2 (5 pairs).", markdown);
        // Every round on every cell: nothing to say, and the pairs are every case's.
        Assert.Null(Lightning.Bench.Reports.ComparisonReport.CellsStopped(rounds[..2]));
        Assert.Contains("## Budget: 5 pairs per case", Lightning.Bench.Reports.ComparisonReport.BudgetMarkdown(new BudgetReport(600, rounds[..2], "the budget", [])));
    }
}
