using System.Globalization;
using System.Text;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// verdicts.json (every verdict for programs: a CI job, a bisection's step; docs/verdicts.schema.json) and
/// verdicts.md (a pull-request comment: the gate, the verdicts that moved first, a link to the page), written by every
/// run; and the gate itself (--fail-on), which turns a run that ended as asked into exit 3 when a primary verdict is
/// one it lists.
/// </summary>
internal sealed class VerdictsReport : IRunEndOutput
{
    public const string MarkdownFile = "verdicts.md";

    /// <summary>verdicts.md shows at most this many rows; the rest are in comparison.md and verdicts.json.</summary>
    public const int MaxRows = 25;

    public IReadOnlyList<string> Files => [VerdictsFile.FileName, MarkdownFile];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        var verdicts = Of(
            context.RunId,
            context.Scenario.Name,
            complete: context.Completed && !context.Partial,
            context.Options,
            context.Results.Comparisons
        );
        verdicts.Write(context.ResultsDirectory);
        File.WriteAllText(
            Path.Combine(context.ResultsDirectory, MarkdownFile),
            Markdown(verdicts, Path.GetFileName(context.ResultsDirectory))
        );
        return Task.CompletedTask;
    }

    public static VerdictsFile Of(
        string runId,
        string scenario,
        bool complete,
        HarnessOptions options,
        RunComparisons? comparisons
    )
    {
        var rows = comparisons?.Comparisons.Select(c => Row(c, comparisons.ThresholdPercent)).ToList() ?? [];
        var verdicts = new VerdictsFile
        {
            RunId = runId,
            Scenario = scenario,
            Complete = complete,
            ThresholdPercent = comparisons?.ThresholdPercent ?? options.ThresholdPercent,
            Builds = options
                .Builds.Select(b =>
                    options.Sources.FirstOrDefault(s => s.Image == b.Image) is { } source
                        ? new VerdictBuild(b.Name, b.Image, source.Commit, source.Subject)
                        : new VerdictBuild(b.Name, b.Image, null, null)
                )
                .ToList(),
            Verdicts = rows,
        };
        if (options.FailOn.Count == 0)
        {
            return verdicts;
        }
        var tripped = verdicts.Tripping(options.FailOn).Count;
        return verdicts with { Gate = new VerdictGate(options.FailOn, tripped, Failed: complete && tripped > 0) };
    }

    public static VerdictRow Row(ArmComparison c, double runThreshold)
    {
        var i = c.Interval;
        return new VerdictRow(
            c.Cell,
            c.Metric,
            c.Unit,
            c.Kind,
            c.Baseline,
            c.Candidate,
            Finite(c.BaselineMean),
            Finite(c.CandidateMean),
            Finite(i.Ratio),
            i.HasInterval ? new VerdictInterval(i.Low, i.High, RatioInterval.Confidence, i.Paired, i.Sequential) : null,
            i.BaselineTopologies,
            Word(c.Verdict),
            c.Verdict,
            c.Precision is { } p && double.IsFinite(p.DetectablePercent) ? p.DetectablePercent : null,
            c.ThresholdPercent ?? runThreshold,
            BudgetedVerdicts.IsPrimary(c)
        );
    }

    /// <summary>A verdict's one word: slower, faster, same, unknown, or "no ratio".</summary>
    public static string Word(string verdict) =>
        verdict switch
        {
            Verdict.Unknown => FailOn.Unknown,
            Verdict.NoRatio => FailOn.NoRatio,
            _ => verdict,
        };

    /// <summary>
    /// The run's exit code with the gate applied: a run that ended as asked (0) exits <see cref="HarnessExit.Gate"/>
    /// when a primary verdict is one --fail-on lists, saying which; any other code stands (the harness's failure wins).
    /// </summary>
    public static int GateExit(
        int exitCode,
        IReadOnlyList<string> failOn,
        RunComparisons? comparisons,
        RunProgress? progress
    )
    {
        if (exitCode != 0 || failOn.Count == 0)
        {
            return exitCode;
        }
        var rows =
            comparisons?.Comparisons.Select(c => Row(c, comparisons.ThresholdPercent)).Where(r => r.Primary).ToList()
            ?? [];
        var tripping = rows.Where(r => FailOn.Trips(failOn, r.Verdict)).ToList();
        var asked = $"--fail-on {string.Join(',', failOn)}";
        if (tripping.Count == 0)
        {
            progress?.Info(
                $"{asked}: passed, no primary verdict is {string.Join(" or ", failOn)} ({rows.Count} judged: {Counts(rows)}; see {MarkdownFile})"
            );
            return exitCode;
        }
        var message =
            $"{asked}: {tripping.Count} of {rows.Count} primary verdicts are: {string.Join("; ", tripping.Take(4).Select(Describe))}"
            + $"{(tripping.Count > 4 ? $"; and {tripping.Count - 4} more" : "")} (see {MarkdownFile})";
        progress?.Log?.WriteLine($"lnbench: error: {message}");
        return HarnessExit.Fail(HarnessExit.Gate, message);
    }

    /// <summary>verdicts.md: short enough for a pull request's comment.</summary>
    public static string Markdown(VerdictsFile verdicts, string runFolder)
    {
        var text = new StringBuilder();
        var baseline = verdicts.Builds.FirstOrDefault();
        var candidates = verdicts.Builds.Skip(1).ToList();
        text.AppendLine(
            baseline is null || candidates.Count == 0
                ? $"### Lightning.Bench: {verdicts.Scenario}"
                : $"### Lightning.Bench: {verdicts.Scenario}, {string.Join(", ", candidates.Select(b => $"`{b.Name}`"))} against `{baseline.Name}`"
        );
        text.AppendLine();
        var primary = verdicts.Verdicts.Where(v => v.Primary).ToList();
        if (verdicts.Gate is { } gate)
        {
            text.AppendLine(
                gate.Failed
                    ? $"**`--fail-on {string.Join(',', gate.FailOn)}`: failed**, {gate.Tripped} primary verdict(s) are {string.Join(" or ", gate.FailOn)}."
                    : $"`--fail-on {string.Join(',', gate.FailOn)}`: {(verdicts.Complete ? "passed" : "not judged, the run did not end as asked")}."
            );
            text.AppendLine();
        }
        if (verdicts.Verdicts.Count == 0)
        {
            text.AppendLine(
                $"No verdicts: the run compared no builds{(verdicts.Complete ? "" : " (it stopped early)")}."
            );
        }
        else
        {
            text.AppendLine(
                $"Primary verdicts (each build's mean time and operations/s against `{baseline?.Name}`): {Counts(primary)}, of {primary.Count}"
                    + $"{(verdicts.Complete ? "" : "; the run stopped early, these are what it had")}."
            );
            text.AppendLine();
            // What moved first (any metric, the primary ones first), then the primary verdicts that did not.
            var shown = verdicts
                .Verdicts.Where(Moved)
                .OrderBy(v => v.Primary ? 0 : 1)
                .Concat(primary.Where(v => !Moved(v)))
                .ToList();
            text.AppendLine("| case | metric | build | ratio (95 % interval) | verdict | detects ≥ |");
            text.AppendLine("|---|---|---|---|---|---:|");
            foreach (var v in shown.Take(MaxRows))
            {
                var verdict = Moved(v) ? $"**{v.Verdict}**" : v.Verdict;
                text.AppendLine(
                    $"| {v.Case} | {v.Metric} | `{v.Candidate}` | {Interval(v)} | {verdict} | {(v.DetectsPercent is { } d ? F(d, "0.#") + " %" : "-")} |"
                );
            }
            var left = verdicts.Verdicts.Count - Math.Min(shown.Count, MaxRows);
            text.AppendLine();
            if (left > 0)
            {
                text.AppendLine(
                    $"{left} more verdict(s) (the other metrics' `same` and `unknown`) are in `comparison.md` and `{VerdictsFile.FileName}`."
                );
                text.AppendLine();
            }
        }
        text.AppendLine(
            "Builds: "
                + string.Join(
                    "; ",
                    verdicts.Builds.Select(b =>
                        $"`{b.Name}` = `{b.Image}`"
                        + (b.Commit is null ? "" : $" ({b.Commit[..Math.Min(12, b.Commit.Length)]} \"{b.Subject}\")")
                    )
                )
                + "."
        );
        text.AppendLine();
        text.AppendLine(
            $"The run's page: [`report.html`]({runFolder}/{ReportHtml.FileName}) in its folder and zip (`{runFolder}`), with every verdict, interval and cost."
        );
        return text.ToString();
    }

    private static bool Moved(VerdictRow v) => v.Verdict is FailOn.Slower or FailOn.Faster;

    private static string Counts(IReadOnlyList<VerdictRow> rows) =>
        string.Join(
            ", ",
            new[] { FailOn.Slower, FailOn.Faster, Verdict.Same, FailOn.Unknown, FailOn.NoRatio }
                .Where(w => w != FailOn.NoRatio || rows.Any(r => r.Verdict == w))
                .Select(w => $"{rows.Count(r => r.Verdict == w)} {w}")
        );

    private static string Describe(VerdictRow v) =>
        $"{v.Case} {v.Metric} of {v.Candidate} {v.Verdict} {Interval(v)}"
        + (v.Ratio == 0 ? " (no operation of it ended as expected, in every pair)" : "");

    private static string Interval(VerdictRow v) =>
        v.Ratio is not { } ratio ? "-"
        : v.Interval is { } i ? $"{F(ratio, "0.000")} ({F(i.Low, "0.000")}–{F(i.High, "0.000")})"
        : F(ratio, "0.000");

    private static double? Finite(double value) => double.IsFinite(value) ? value : null;

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
