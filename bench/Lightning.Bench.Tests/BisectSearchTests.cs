using Lightning.Bench.Bisection;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>
/// The bisection's decisions on scripted histories of verdicts: which commits it measures, in which order, and where
/// it ends, as git bisect would on the same good, bad and skip, with unknown said apart and never guessed.
/// </summary>
[Trait("Category", "Unit")]
public class BisectSearchTests
{
    /// <summary>GOOD (0), then commits 1..n; each commit's verdict from the script (missing: same).</summary>
    private static async Task<(BisectSearch Search, BisectEnd End)> RunAsync(
        int commits,
        IReadOnlyDictionary<int, string> script,
        bool mergeBase = false
    )
    {
        var search = new BisectSearch(Enumerable.Range(0, commits + 1).Select(i => $"c{i}").ToList(), mergeBase);
        var end = await search.RunAsync(
            (index, _) =>
                Task.FromResult(
                    script.GetValueOrDefault(index, "same") switch
                    {
                        "skip" => StepMeasurement.Skip("does not build"),
                        var verdict => new StepMeasurement(verdict, 1, 0.9, 1.1, 5, null),
                    }
                )
        );
        return (search, end);
    }

    /// <summary>A step at <paramref name="at"/>: every commit from it on is slower, the ones before are same.</summary>
    private static Dictionary<int, string> StepAt(int at, int commits) =>
        Enumerable.Range(at, commits - at + 1).ToDictionary(i => i, _ => "slower");

    [Fact]
    public async Task A_clean_step_is_found_in_log2_steps_after_BAD_each_at_the_middle_of_what_is_open()
    {
        var (search, end) = await RunAsync(16, StepAt(11, 16));

        Assert.Equal(11, end.Culprit);
        Assert.Equal("slower", search.Direction);
        // BAD first, then halves: 8 (good), 12 (bad), 10 (good), 11 (bad).
        Assert.Equal([16, 8, 12, 10, 11], search.Steps.Select(s => s.Index));
        Assert.Equal(
            [StepOutcome.Bad, StepOutcome.Good, StepOutcome.Bad, StepOutcome.Good, StepOutcome.Bad],
            search.Steps.Select(s => s.Outcome)
        );
        Assert.Equal([1, 2, 3, 4, 5], search.Steps.Select(s => s.Number));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(37)]
    public async Task A_step_at_the_first_commit_after_GOOD_or_at_BAD_itself_is_found(int at)
    {
        var (search, end) = await RunAsync(37, StepAt(at, 37));
        Assert.Equal(at, end.Culprit);
        Assert.Equal([at], end.Candidates);
        Assert.True(search.Steps.Count <= 1 + (int)Math.Ceiling(Math.Log2(37)), $"{search.Steps.Count} steps");
    }

    [Fact]
    public async Task A_merge_base_is_measured_right_after_BAD_and_when_good_the_search_goes_on_from_it()
    {
        // GOOD (0) is off BAD's line; 1 is their merge base, 2..16 BAD's line after it.
        var (search, end) = await RunAsync(16, StepAt(11, 16), mergeBase: true);

        Assert.Equal(11, end.Culprit);
        Assert.False(end.MergeBaseMoved);
        Assert.Equal([16, 1, 8, 12, 10, 11], search.Steps.Select(s => s.Index));
        Assert.Equal(StepOutcome.Good, search.Steps[1].Outcome);
    }

    [Theory]
    [InlineData("skip")]
    [InlineData("unknown")]
    public async Task A_merge_base_that_cannot_be_judged_is_passed_over_like_any_commit(string verdict)
    {
        var script = StepAt(5, 9);
        script[1] = verdict;
        var (search, end) = await RunAsync(9, script, mergeBase: true);

        Assert.Equal(5, end.Culprit);
        Assert.Equal([9, 1], search.Steps.Take(2).Select(s => s.Index));
    }

    [Fact]
    public async Task A_merge_base_already_in_BADs_direction_ends_the_search_on_GOODs_own_line()
    {
        var (search, end) = await RunAsync(16, StepAt(1, 16), mergeBase: true);

        Assert.True(end.MergeBaseMoved);
        Assert.Null(end.Culprit);
        Assert.Contains("already slower than GOOD", end.NoStep);
        Assert.Contains("GOOD's own line", end.NoStep);
        Assert.Equal([16, 1], search.Steps.Select(s => s.Index));
    }

    [Fact]
    public async Task A_range_of_one_commit_is_BAD_alone()
    {
        var (search, end) = await RunAsync(1, StepAt(1, 1));
        Assert.Equal(1, end.Culprit);
        Assert.Equal([1], search.Steps.Select(s => s.Index));
    }

    [Fact]
    public async Task A_commit_that_does_not_build_is_skipped_for_the_next_nearest_the_middle_and_does_not_hide_the_step()
    {
        var script = StepAt(6, 8);
        script[4] = "skip";
        var (search, end) = await RunAsync(8, script);

        Assert.Equal(6, end.Culprit);
        // 4 (the middle) skipped, then 3 (as near as 5, the older first), 5, 6.
        Assert.Equal([8, 4, 3, 5, 6], search.Steps.Select(s => s.Index));
        Assert.Equal(StepOutcome.Skip, search.Steps[1].Outcome);
        Assert.Equal("does not build", search.Steps[1].Measurement.Skipped);
    }

    [Fact]
    public async Task A_skip_or_an_unknown_just_before_the_first_bad_commit_leaves_the_commits_it_may_be_never_a_guess()
    {
        var script = StepAt(6, 8);
        script[5] = "unknown";
        script[4] = "skip";
        var (search, end) = await RunAsync(8, script);

        Assert.Null(end.Culprit);
        Assert.Equal([4, 5, 6], end.Candidates);
        Assert.Contains(search.Steps, s => s.Index == 5 && s.Outcome == StepOutcome.Unknown);
        Assert.Contains(search.Steps, s => s.Index == 4 && s.Outcome == StepOutcome.Skip);
        Assert.Empty(search.Open);
    }

    [Fact]
    public async Task Faster_than_GOOD_is_a_step_too_and_then_slower_counts_as_good()
    {
        var script = Enumerable.Range(3, 4).ToDictionary(i => i, _ => "faster");
        script[2] = "slower";
        var (search, end) = await RunAsync(6, script);
        Assert.Equal("faster", search.Direction);
        Assert.Equal(3, end.Culprit);
        Assert.Equal(StepOutcome.Good, search.Steps.Single(s => s.Index == 2).Outcome);
    }

    [Theory]
    [InlineData("same", "BAD is same against GOOD: no step to look for")]
    [InlineData("unknown", "BAD's verdict against GOOD stayed unknown within its budget")]
    [InlineData("skip", "BAD could not be measured (does not build)")]
    public async Task BAD_is_measured_first_and_without_a_step_there_nothing_else_is(string bad, string said)
    {
        var (search, end) = await RunAsync(20, new Dictionary<int, string> { [20] = bad });
        Assert.Null(end.Culprit);
        Assert.Empty(end.Candidates);
        Assert.Contains(said, end.NoStep);
        Assert.Equal([20], search.Steps.Select(s => s.Index));
        Assert.Null(search.Direction);
    }

    [Fact]
    public void A_resumed_search_takes_its_recorded_steps_and_goes_on_where_it_stopped()
    {
        var commits = Enumerable.Range(0, 17).Select(i => $"c{i}").ToList();
        var search = new BisectSearch(commits);
        search.Record(16, new StepMeasurement("slower", 1.2, 1.1, 1.3, 5, null));
        search.Record(8, new StepMeasurement("same", 1, 0.99, 1.01, 5, null));
        Assert.Equal(12, search.Next());
        Assert.Throws<InvalidOperationException>(() =>
            search.Record(8, new StepMeasurement("same", 1, 0.99, 1.01, 5, null))
        );
        Assert.Throws<InvalidOperationException>(() =>
            search.Record(0, new StepMeasurement("same", 1, 0.99, 1.01, 5, null))
        );
    }

    [Fact]
    public void A_step_runs_the_bisections_command_line_without_its_own_words_and_reads_its_metric_from_verdicts_json()
    {
        Assert.Equal(
            // --source is the step's own (the checkout's full path), given once: not the user's words again.
            ["AlicePaysBob", "--max-time", "5m", "--concurrency=1", "--", "--memory"],
            BisectCommand.StepArguments([
                "bisect",
                "v1",
                "v2",
                "AlicePaysBob",
                "--source",
                "/src",
                "--metric",
                "storage/attempt",
                "--max-time",
                "5m",
                "--case=Concurrency=1",
                "--concurrency=1",
                "--",
                "--memory",
            ])
        );
        // What a step adds goes before BenchmarkDotNet's part, after the user's own (so it wins).
        Assert.Equal(
            ["AlicePaysBob", "--results", "/r", "--results", "/steps/1", "--", "--memory"],
            BisectCommand.WithOptions(["AlicePaysBob", "--results", "/r", "--", "--memory"], ["--results", "/steps/1"])
        );
        Assert.Equal(["AlicePaysBob", "--no-zip"], BisectCommand.WithOptions(["AlicePaysBob"], ["--no-zip"]));

        var folder = Directory.CreateTempSubdirectory("lnbench-step-").FullName;
        try
        {
            var run = Path.Combine(folder, "20260101-120000-abcd-AlicePaysBob");
            Directory.CreateDirectory(run);
            var record = new BisectRecord
            {
                Arguments = [],
                Source = "/src",
                Good = "v1",
                Bad = "v2",
                Metric = "storage/attempt",
                Case = "Concurrency=10",
                Commits = [],
                Started = DateTimeOffset.UnixEpoch,
            };
            VerdictRow Row(string cell, string metric, string verdict) =>
                new(
                    cell,
                    metric,
                    "KB",
                    "build",
                    BisectRefs.GoodBuild,
                    BisectRefs.CandidateBuild,
                    10,
                    11.3,
                    1.13,
                    new VerdictInterval(1.08, 1.18, 0.95, true, true),
                    6,
                    verdict,
                    verdict,
                    4.5,
                    2,
                    false
                );
            new VerdictsFile
            {
                RunId = "20260101-120000-abcd",
                Scenario = "AlicePaysBob",
                Complete = true,
                ThresholdPercent = 2,
                Builds = [],
                Verdicts =
                [
                    Row("Concurrency=1", "storage/attempt", "same"),
                    Row("Concurrency=10", "storage/attempt", "slower"),
                    Row("Concurrency=10", "mean time", "same"),
                ],
            }.Write(run);

            var measured = BisectCommand.Read(0, folder, "steps/3-abc", record, isBad: false);
            Assert.Equal(
                ("slower", 1.13, 1.08, 1.18, 4.5, "steps/3-abc"),
                (
                    measured.Verdict,
                    measured.Ratio!.Value,
                    measured.Low!.Value,
                    measured.High!.Value,
                    measured.DetectsPercent!.Value,
                    measured.Folder
                )
            );

            // Without --case, a metric measured in two cases is said in one line.
            var twoCases = Assert.Throws<UsageException>(() =>
                BisectCommand.Read(0, folder, "s", record with { Case = null }, isBad: true)
            );
            Assert.Contains("give --case", twoCases.Message);
            // A metric the step does not have: bad input at BAD, a skip elsewhere.
            Assert.Throws<UsageException>(() =>
                BisectCommand.Read(0, folder, "s", record with { Metric = "storage/payment" }, isBad: true)
            );
            Assert.NotNull(
                BisectCommand.Read(0, folder, "s", record with { Metric = "storage/payment" }, isBad: false).Skipped
            );
            // A step whose workload could not run, or whose build was refused, is a skip.
            Assert.Contains(
                "could not run",
                BisectCommand.Read(HarnessExit.Failure, folder, "s", record, isBad: false).Skipped
            );
            Assert.Contains(
                "refused",
                BisectCommand.Read(HarnessExit.Usage, folder, "s", record, isBad: false).Skipped
            );
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Theory]
    [InlineData("bisect takes GOOD and BAD", "bisect", "v1")]
    [InlineData("bisect needs the metric", "bisect", "v1", "v2", "AlicePaysBob", "--source", "/src")]
    [InlineData(
        "bisect is made from a checkout's commits: add --source DIR",
        "bisect",
        "v1",
        "v2",
        "AlicePaysBob",
        "--metric",
        "mean time"
    )]
    [InlineData(
        "bisect makes its two builds",
        "bisect",
        "v1",
        "v2",
        "AlicePaysBob",
        "--source",
        "/src",
        "--metric",
        "mean time",
        "--build",
        "a=img:1"
    )]
    [InlineData(
        "--fail-on does not go with it",
        "bisect",
        "v1",
        "v2",
        "AlicePaysBob",
        "--source",
        "/src",
        "--metric",
        "mean time",
        "--fail-on",
        "slower"
    )]
    [InlineData("--metric applies to a bisection", "AlicePaysBob", "--metric", "mean time")]
    [InlineData("give only ./run.sh bisect --resume DIR", "bisect", "--resume", "results/bisect-x", "--plain")]
    public void What_a_bisection_lacks_is_said_in_one_line(string said, params string[] args) =>
        Assert.Contains(said, Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message);

    [Fact]
    public void A_bisection_is_checked_as_its_first_step_GOOD_against_BAD_with_a_budget_per_step()
    {
        var options = OptionParser.Parse([
            "bisect",
            "v24.11.2",
            "v25.02.2",
            "AlicePaysBob",
            "--source",
            "/src",
            "--metric",
            "storage/payment",
            "--case",
            "Concurrency=1",
            "--max-time",
            "10m",
        ]);
        Assert.Equal(new BisectRefs("v24.11.2", "v25.02.2"), options.Bisect);
        Assert.Equal(
            [("good", "git:v24.11.2"), ("candidate", "git:v25.02.2")],
            options.Builds.Select(b => (b.Name, b.Image))
        );
        Assert.Equal(("storage/payment", "Concurrency=1"), (options.BisectMetric, options.BisectCase));
        Assert.Equal(TimeSpan.FromMinutes(10), options.MaxTime);
        Assert.Equal("results/bisect-x", OptionParser.Parse(["bisect", "--resume", "results/bisect-x"]).BisectResume);
    }
}
