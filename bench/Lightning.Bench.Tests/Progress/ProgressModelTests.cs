using Lightning.Bench.Progress;

namespace Lightning.Bench.Tests.Progress;

/// <summary>The progress model: cases done of all, pairs, the budget, and the ETA from the mean time per finished case.</summary>
[Trait("Category", "Unit")]
public class ProgressModelTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    private static ProgressCase Case(string build, int topology, string cell = "Concurrency=1") =>
        new($"Build={build}, {cell}, Topology={topology}, Traces=on", cell, topology);

    [Fact]
    public void Before_any_case_ends_there_is_no_ETA_and_every_count_is_of_the_declared_cases()
    {
        var clock = new ManualClock(Start);
        var model = new ProgressModel(clock);
        model.Describe("AlicePaysBob", "20260101-120000-ab12", Start, maxTime: null);
        model.Declare([Case("a", 1), Case("b", 1), Case("a", 2), Case("b", 2)]);
        clock.Advance(TimeSpan.FromSeconds(5));

        var snapshot = model.Snapshot();

        Assert.Equal(("AlicePaysBob", "20260101-120000-ab12"), (snapshot.Scenario, snapshot.RunId));
        Assert.Equal((4, 0, 0), (snapshot.CasesTotal, snapshot.CasesDone, snapshot.CasesFailed));
        Assert.Equal((0, 2), (snapshot.PairsDone!.Value, snapshot.PairsTotal!.Value));
        Assert.Equal(2, snapshot.Topologies);
        Assert.Null(snapshot.Eta);
        Assert.Null(snapshot.CurrentCase);
        Assert.Equal(TimeSpan.FromSeconds(5), snapshot.Elapsed);
        Assert.Null(snapshot.Budget);
        Assert.Null(snapshot.BudgetLeft);
    }

    [Fact]
    public void The_ETA_is_the_mean_time_of_the_finished_cases_for_each_left_the_running_one_needing_what_it_lacks_of_the_mean()
    {
        var clock = new ManualClock(Start);
        var model = new ProgressModel(clock);
        model.Describe("AlicePaysBob", "run", Start, TimeSpan.FromMinutes(30));
        model.Declare([Case("a", 1), Case("b", 1), Case("a", 2), Case("b", 2)]);
        model.SetActivity("seeding the run's chain");
        Assert.Equal("seeding the run's chain", model.Snapshot().Activity);

        model.CaseStarted(Case("a", 1).Key);
        clock.Advance(TimeSpan.FromSeconds(60));
        model.CaseEnded(Case("a", 1).Key, succeeded: true, TimeSpan.FromMilliseconds(812.4));
        model.CaseStarted(Case("b", 1).Key);
        clock.Advance(TimeSpan.FromSeconds(20));
        var running = model.Snapshot();

        Assert.Null(running.Activity);
        Assert.Equal(Case("b", 1).Key, running.CurrentCase);
        Assert.Equal(TimeSpan.FromSeconds(20), running.CurrentCaseElapsed);
        Assert.Equal(1, running.Topology);
        Assert.Equal((4, 1), (running.CasesTotal, running.CasesDone));
        Assert.Equal(TimeSpan.FromSeconds(60), running.MeanCaseTime);
        // Two cases still to start at 60 s each, and 40 s of the running one's 60.
        Assert.Equal(TimeSpan.FromSeconds(2 * 60 + 40), running.Eta);
        Assert.Equal(
            (Case("a", 1).Key, true, TimeSpan.FromMilliseconds(812.4)),
            (running.LastCase, running.LastCaseSucceeded, running.LastCaseMean)
        );
        Assert.Equal(0, running.PairsDone);
        Assert.Equal(TimeSpan.FromSeconds(80), running.Elapsed);
        Assert.Equal(TimeSpan.FromMinutes(30) - TimeSpan.FromSeconds(80), running.BudgetLeft);

        clock.Advance(TimeSpan.FromSeconds(100));
        model.CaseEnded(Case("b", 1).Key, succeeded: false, mean: null);
        var ended = model.Snapshot();

        Assert.Equal((2, 1), (ended.CasesDone, ended.CasesFailed));
        Assert.Equal(1, ended.PairsDone);
        Assert.Equal(TimeSpan.FromSeconds(90), ended.MeanCaseTime);
        Assert.Equal(TimeSpan.FromSeconds(180), ended.Eta);
        Assert.False(ended.LastCaseSucceeded);
        Assert.Null(ended.Topology);
    }

    [Fact]
    public void A_budgeted_runs_rounds_add_their_cases_and_its_budget_left_never_goes_below_zero()
    {
        var clock = new ManualClock(Start);
        var model = new ProgressModel(clock);
        model.Describe("AlicePaysBob", "run", Start, TimeSpan.FromMinutes(10));
        model.Declare([Case("a", 1), Case("b", 1)]);
        foreach (var build in new[] { "a", "b" })
        {
            model.CaseStarted(Case(build, 1).Key);
            clock.Advance(TimeSpan.FromMinutes(3));
            model.CaseEnded(Case(build, 1).Key, succeeded: true, TimeSpan.FromSeconds(1));
        }
        model.Declare([Case("a", 2), Case("b", 2)]);
        var second = model.Snapshot();

        Assert.Equal((2, 4, 2), (second.Round, second.CasesTotal, second.CasesDone));
        Assert.Equal((1, 2), (second.PairsDone!.Value, second.PairsTotal!.Value));
        Assert.Equal(TimeSpan.FromMinutes(6), second.Eta);
        Assert.Equal(TimeSpan.FromMinutes(4), second.BudgetLeft);

        clock.Advance(TimeSpan.FromMinutes(7));
        Assert.Equal(TimeSpan.Zero, model.Snapshot().BudgetLeft);
    }

    [Fact]
    public void A_run_of_one_arm_has_no_pairs_to_count()
    {
        var model = new ProgressModel(new ManualClock(Start));
        model.Declare([Case("a", 1, "Concurrency=1"), Case("a", 1, "Concurrency=10"), Case("a", 2, "Concurrency=1")]);

        var snapshot = model.Snapshot();

        Assert.Null(snapshot.PairsDone);
        Assert.Null(snapshot.PairsTotal);
        Assert.Equal(3, snapshot.CasesTotal);
    }

    [Theory]
    [InlineData(60, 3, null, 180)]
    [InlineData(60, 3, 20, 160)]
    [InlineData(60, 3, 90, 120)]
    [InlineData(60, 1, 59, 1)]
    [InlineData(60, 0, null, 0)]
    public void The_ETA_counts_the_running_case_as_what_it_lacks_of_the_mean_and_never_less_than_nothing(
        int meanSeconds,
        int remaining,
        int? runningSeconds,
        int expectedSeconds
    ) =>
        Assert.Equal(
            TimeSpan.FromSeconds(expectedSeconds),
            ProgressModel.Eta(
                TimeSpan.FromSeconds(meanSeconds),
                remaining,
                runningSeconds is { } s ? TimeSpan.FromSeconds(s) : null
            )
        );

    [Theory]
    [InlineData(0, "0s")]
    [InlineData(45.9, "45s")]
    [InlineData(842, "14m 02s")]
    [InlineData(7500, "2h 05m")]
    public void Durations_read_at_a_glance(double seconds, string expected) =>
        Assert.Equal(expected, ProgressFormat.Duration(TimeSpan.FromSeconds(seconds)));
}
