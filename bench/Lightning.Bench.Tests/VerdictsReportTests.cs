using System.Text.Json.Nodes;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Tests;

/// <summary>verdicts.json, verdicts.md and the gate (--fail-on) over a run's comparisons.</summary>
[Trait("Category", "Unit")]
public class VerdictsReportTests
{
    private static ArmComparison Comparison(
        string cell,
        string metric,
        double low,
        double high,
        string verdict,
        string candidate = "mine",
        string kind = "build"
    ) =>
        new(
            kind,
            cell,
            metric,
            metric == "mean time" ? "ms" : "",
            "base",
            candidate,
            50,
            50 * Math.Sqrt(low * high),
            new RatioInterval(Math.Sqrt(low * high), low, high, 6, 6, true, 0.01, low, high, Sequential: true),
            verdict,
            new ComparisonPrecision(3, 0.5, 10, 20, 4.2)
        )
        {
            ThresholdPercent = 2,
        };

    private static readonly RunComparisons Run = new(
        [
            Comparison("Concurrency=1", "mean time", 1.05, 1.11, Verdict.Slower),
            Comparison("Concurrency=1", "payments/s", 0.90, 0.95, Verdict.Slower),
            Comparison("Concurrency=1", "CPU/payment", 0.97, 1.04, Verdict.Unknown),
            Comparison("Concurrency=1", "storage/payment", 1.08, 1.20, Verdict.Slower),
            Comparison("Concurrency=10", "mean time", 0.99, 1.01, Verdict.Same),
            Comparison("Concurrency=10", "payments/s", 0.97, 1.02, Verdict.Unknown),
            Comparison("Concurrency=10", "mean time", 0.80, 0.90, Verdict.Faster, "on", "traces"),
        ],
        [],
        2
    );

    private static HarnessOptions Options(params string[] failOn) =>
        OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            "base=img:1",
            "--build",
            "mine=img:2",
            .. failOn.Length > 0 ? new[] { "--fail-on", string.Join(',', failOn) } : [],
        ]);

    [Fact]
    public void Every_comparison_is_a_row_with_one_word_and_only_builds_mean_time_and_rates_are_primary()
    {
        var verdicts = VerdictsReport.Of("20260101-120000-abcd", "AlicePaysBob", complete: true, Options(), Run);

        Assert.Equal(7, verdicts.Verdicts.Count);
        Assert.Equal(
            ["slower", "slower", "unknown", "slower", "same", "unknown", "faster"],
            verdicts.Verdicts.Select(v => v.Verdict)
        );
        Assert.Equal([true, true, false, false, true, true, false], verdicts.Verdicts.Select(v => v.Primary));
        var first = verdicts.Verdicts[0];
        Assert.Equal(
            (1.05, 1.11, 0.95, true, true, 6, 4.2),
            (
                first.Interval!.Low,
                first.Interval.High,
                first.Interval.Confidence,
                first.Interval.Paired,
                first.Interval.Sequential,
                first.Pairs,
                first.DetectsPercent!.Value
            )
        );
        Assert.Equal(Verdict.Unknown, verdicts.Verdicts[2].VerdictText);
        Assert.Null(verdicts.Gate);
        Assert.Equal(["base", "mine"], verdicts.Builds.Select(b => b.Name));
    }

    [Theory]
    [InlineData("slower", 2)]
    [InlineData("faster", 0)]
    [InlineData("changed", 2)]
    [InlineData("unknown", 1)]
    [InlineData("faster,unknown", 1)]
    public void The_gate_counts_the_primary_verdicts_it_lists_and_only_those(string failOn, int tripped)
    {
        var verdicts = VerdictsReport.Of(
            "20260101-120000-abcd",
            "AlicePaysBob",
            complete: true,
            Options(failOn.Split(',')),
            Run
        );
        Assert.Equal(tripped, verdicts.Gate!.Tripped);
        Assert.Equal(tripped > 0, verdicts.Gate.Failed);
        // A run that did not end as asked fails for that, never for the gate.
        Assert.False(
            VerdictsReport
                .Of("20260101-120000-abcd", "AlicePaysBob", complete: false, Options(failOn.Split(',')), Run)
                .Gate!.Failed
        );
    }

    [Theory]
    [InlineData("unknown", "no ratio", true)]
    [InlineData("unknown", "unknown", true)]
    [InlineData("slower", "no ratio", false)]
    [InlineData("changed", "no ratio", false)]
    [InlineData("changed", "faster", true)]
    public void Unknown_trips_on_a_verdict_with_no_ratio_as_on_one_still_open(
        string failOn,
        string verdict,
        bool trips
    ) => Assert.Equal(trips, FailOn.Trips([failOn], verdict));

    [Fact]
    public void The_gate_turns_a_run_that_ended_as_asked_into_exit_3_and_leaves_every_other_exit_as_it_is()
    {
        Assert.Equal(HarnessExit.Gate, VerdictsReport.GateExit(0, ["slower"], Run, null));
        Assert.NotEqual(HarnessExit.Failure, HarnessExit.Gate);
        Assert.Equal(0, VerdictsReport.GateExit(0, ["faster"], Run, null));
        Assert.Equal(0, VerdictsReport.GateExit(0, [], Run, null));
        Assert.Equal(HarnessExit.Failure, VerdictsReport.GateExit(HarnessExit.Failure, ["slower"], Run, null));
        Assert.Equal(HarnessExit.Interrupted, VerdictsReport.GateExit(HarnessExit.Interrupted, ["slower"], Run, null));
        Assert.Equal(0, VerdictsReport.GateExit(0, ["slower"], null, null));
    }

    [Fact]
    public void Verdicts_md_says_the_gate_then_the_verdicts_that_moved_first_and_links_the_page()
    {
        var verdicts = VerdictsReport.Of(
            "20260101-120000-abcd",
            "AlicePaysBob",
            complete: true,
            Options("slower"),
            Run
        );
        var markdown = VerdictsReport.Markdown(verdicts, "20260101-120000-abcd-AlicePaysBob");
        var lines = markdown.Split('\n');

        Assert.Contains("**`--fail-on slower`: failed**, 2 primary verdict(s) are slower.", markdown);
        Assert.Contains("2 slower, 0 faster, 1 same, 1 unknown, of 4", markdown);
        var rows = lines.Where(l => l.StartsWith("| Concurrency=", StringComparison.Ordinal)).ToList();
        // Moved first (primary before the others), then the primary ones that did not move; CPU's unknown is left to comparison.md.
        Assert.Equal(
            ["mean time", "payments/s", "storage/payment", "mean time", "mean time", "payments/s"],
            rows.Select(r => r.Split('|')[2].Trim())
        );
        Assert.Contains("| Concurrency=1 | mean time | `mine` | 1.080 (1.050–1.110) | **slower** | 4.2 % |", rows);
        Assert.Contains("1 more verdict(s)", markdown);
        Assert.Contains("[`report.html`](20260101-120000-abcd-AlicePaysBob/report.html)", markdown);
        Assert.True(lines.Length < 30, $"{lines.Length} lines");
    }

    [Fact]
    public void Verdicts_json_is_what_its_schema_says_and_the_schema_refuses_what_it_is_not()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-verdicts-").FullName;
        try
        {
            VerdictsReport
                .Of("20260101-120000-abcd", "AlicePaysBob", complete: true, Options("slower"), Run)
                .Write(folder);
            var json = File.ReadAllText(Path.Combine(folder, VerdictsFile.FileName));
            Assert.Empty(VerdictsSchema.Errors(json));
            Assert.Equal(7, VerdictsFile.Read(json).Verdicts.Count);
            // With no verdicts and no gate, as a run of one build writes it.
            VerdictsReport
                .Of("20260101-120000-abcd", "AlicePaysBob", complete: false, OptionParser.Parse(["AlicePaysBob"]), null)
                .Write(folder);
            Assert.Empty(VerdictsSchema.Errors(File.ReadAllText(Path.Combine(folder, VerdictsFile.FileName))));

            // The schema is no rubber stamp: a verdict word it does not know, a missing field and a field too many are each refused.
            string Changed(Action<JsonObject> change)
            {
                var node = JsonNode.Parse(json)!.AsObject();
                change(node);
                return node.ToJsonString();
            }
            Assert.NotEmpty(VerdictsSchema.Errors(Changed(n => n["verdicts"]![0]!["verdict"] = "samey")));
            Assert.NotEmpty(VerdictsSchema.Errors(Changed(n => n["verdicts"]![0]!.AsObject().Remove("primary"))));
            Assert.NotEmpty(VerdictsSchema.Errors(Changed(n => n["extra"] = 1)));
            Assert.NotEmpty(VerdictsSchema.Errors(Changed(n => n["verdicts"]![0]!["interval"]!["low"] = -1)));
            // A candidate whose operations all failed in every pair: a ratio and bounds of exactly 0 are valid.
            Assert.Empty(
                VerdictsSchema.Errors(
                    Changed(n =>
                    {
                        n["verdicts"]![1]!["ratio"] = 0;
                        n["verdicts"]![1]!["interval"]!["low"] = 0;
                        n["verdicts"]![1]!["interval"]!["high"] = 0;
                    })
                )
            );
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
