using Lightning.Bench.Progress;
using Spectre.Console.Testing;

namespace Lightning.Bench.Tests.Progress;

/// <summary>The live display's frame, drawn into Spectre.Console's test console, and its life: lines under it, plain before and after.</summary>
[Trait("Category", "Unit")]
public class SpectreProgressRendererTests
{
    private static readonly DateTime Noon = new(2026, 1, 1, 12, 0, 0);

    private static ProgressSnapshot Running =>
        new()
        {
            Scenario = "AlicePaysBob",
            RunId = "20260101-120000-ab12",
            Elapsed = TimeSpan.FromSeconds(842),
            CasesTotal = 24,
            CasesDone = 7,
            Round = 1,
            CurrentCase = "Build=a, Concurrency=10, Topology=3, Traces=on",
            CurrentCaseElapsed = TimeSpan.FromSeconds(72),
            Topology = 3,
            Topologies = 8,
            LastCase = "Build=b, Concurrency=10, Topology=2, Traces=on",
            LastCaseSucceeded = true,
            LastCaseMean = TimeSpan.FromMilliseconds(812.4),
            PairsDone = 3,
            PairsTotal = 12,
            MeanCaseTime = TimeSpan.FromSeconds(120),
            Eta = TimeSpan.FromSeconds(34 * 60 + 10),
        };

    [Fact]
    public void A_frame_shows_cases_done_of_all_the_running_case_topology_pairs_and_the_ETA()
    {
        var console = new TestConsole().Width(120);

        console.Write(
            SpectreProgressRenderer.Frame(
                Running,
                [
                    "// lnbench [ 812.3 s] case Build=a, Concurrency=10, Topology=3, Traces=on: topology ready, benchmarking",
                ],
                "/work/results/20260101-120000-ab12-AlicePaysBob/console.log",
                Noon
            )
        );

        var frame = console.Output;
        Assert.Contains("lnbench AlicePaysBob · run 20260101-120000-ab12", frame);
        Assert.Contains("7 of 24 (29 %) done", frame);
        Assert.Contains("Build=a, Concurrency=10, Topology=3, Traces=on for 1m 12s", frame);
        Assert.Contains("Build=b, Concurrency=10, Topology=2, Traces=on: ok, 812.4 ms per invocation", frame);
        Assert.Contains("3 of 8", frame);
        Assert.Contains("3 of 12 done", frame);
        Assert.Contains("14m 02s elapsed, ETA 34m 10s (about 12:34) (2m 00s per case)", frame);
        Assert.Contains("// lnbench [ 812.3 s] case Build=a", frame);
        Assert.Contains("console.log", frame);
        Assert.DoesNotContain("Budget", frame);
    }

    [Fact]
    public void A_line_wider_than_the_terminal_takes_one_line_cut_short()
    {
        var console = new TestConsole().Width(60);
        var line =
            "// lnbench [  12.3 s] case Build=a, Concurrency=10, Topology=3, Traces=on: topology ready in 1.3 s (containers 0.8)";

        console.Write(SpectreProgressRenderer.Frame(Running, [line, "// lnbench [  12.4 s] next"], null, Noon));

        var lines = console.Lines;
        var at = lines.ToList().FindIndex(l => l.StartsWith("// lnbench [  12.3 s]", StringComparison.Ordinal));
        Assert.True(at >= 0, console.Output);
        Assert.EndsWith("…", lines[at].TrimEnd());
        Assert.StartsWith("// lnbench [  12.4 s] next", lines[at + 1]);
    }

    [Fact]
    public void When_every_case_has_ended_the_frame_says_so_instead_of_an_ETA()
    {
        var console = new TestConsole().Width(120);

        console.Write(
            SpectreProgressRenderer.Frame(
                Running with
                {
                    CasesDone = 24,
                    CurrentCase = null,
                    Eta = TimeSpan.Zero,
                    Activity = "ending the last topologies",
                },
                [],
                null,
                Noon
            )
        );

        Assert.Contains("24 of 24 (100 %) done", console.Output);
        Assert.Contains("all 24 cases ended", console.Output);
        Assert.Contains("ending the last topologies", console.Output);
        Assert.DoesNotContain("ETA", console.Output);
    }

    [Fact]
    public void A_budgeted_frame_shows_the_budget_used_and_left_and_the_rounds_ETA()
    {
        var console = new TestConsole().Width(120);

        console.Write(
            SpectreProgressRenderer.Frame(
                Running with
                {
                    Budget = TimeSpan.FromMinutes(30),
                    Round = 2,
                    CasesFailed = 1,
                },
                [],
                logPath: null,
                Noon
            )
        );

        var frame = console.Output;
        Assert.Contains("Budget", frame);
        Assert.Contains("14m 02s of 30m 00s used, 15m 58s left", frame);
        Assert.Contains("ETA of this round 34m 10s", frame);
        Assert.Contains("3 of 8 (round 2)", frame);
        Assert.Contains("1 failed", frame);
    }

    [Fact]
    public void Before_the_first_case_ends_the_frame_says_what_the_run_does_and_that_the_ETA_comes_after_it()
    {
        var console = new TestConsole().Width(120);

        console.Write(
            SpectreProgressRenderer.Frame(
                new ProgressSnapshot
                {
                    Scenario = "AlicePaysBob",
                    CasesTotal = 6,
                    Activity = "seeding the run's chain",
                    Topologies = 3,
                },
                [],
                null,
                Noon
            )
        );

        Assert.Contains("0 of 6 (0 %) done", console.Output);
        Assert.Contains("seeding the run's chain", console.Output);
        Assert.Contains("ETA after the first case", console.Output);
    }

    [Fact]
    public void Lines_print_plain_before_the_display_show_under_it_while_it_runs_and_print_plain_after_it()
    {
        var console = new TestConsole().Width(120).Interactive();
        var plain = new StringWriter();
        var renderer = new SpectreProgressRenderer(console, plain, messages: 2);
        var model = new ProgressModel();
        model.Describe("AlicePaysBob", "run-1", DateTimeOffset.UtcNow, null);
        model.Declare([new ProgressCase("Build=a, Concurrency=1, Topology=1, Traces=on", "Concurrency=1", 1)]);

        renderer.Line("before");
        renderer.Start(model, "/r/console.log");
        renderer.Line("first");
        renderer.Line("second");
        renderer.Line("third");
        model.CaseStarted("Build=a, Concurrency=1, Topology=1, Traces=on");
        renderer.Stop();
        renderer.Line("after");

        Assert.Equal($"before{Environment.NewLine}after{Environment.NewLine}", plain.ToString());
        // The last frame stays: the latest two lines under the panel, the first pushed out.
        var frame = console.Output;
        Assert.Contains("0 of 1 (0 %) done", frame);
        Assert.Contains("second", frame);
        Assert.Contains("third", frame);
        Assert.Contains("Build=a, Concurrency=1, Topology=1, Traces=on", frame);
        Assert.Contains("/r/console.log", frame);
        Assert.True(renderer.IsLive);
    }
}
