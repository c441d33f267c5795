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
}
