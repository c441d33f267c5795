using System.Globalization;
using System.Net;
using System.Text;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Bisection;

/// <summary>
/// What a bisection found, as people read it: bisect.md (the culprit with its files, the chain of steps with each
/// verdict and interval), bisect.svg (the metric's ratio to GOOD along the commits measured) and bisect.html, both in
/// one self-contained page.
/// </summary>
internal static class BisectReport
{
    public const string MarkdownFile = "bisect.md";
    public const string PlotFile = "bisect.svg";
    public const string PageFile = "bisect.html";

    public static void Write(string folder, BisectRecord record)
    {
        var markdown = Markdown(record);
        var plot = Plot(record);
        File.WriteAllText(Path.Combine(folder, MarkdownFile), markdown);
        File.WriteAllText(Path.Combine(folder, PlotFile), plot);
        File.WriteAllText(
            Path.Combine(folder, PageFile),
            ReportHtml.Page(
                $"Lightning.Bench: bisection of {record.Metric}",
                MarkdownHtml.Convert(
                    markdown,
                    (image, _) => image == PlotFile ? $"<figure class=\"bisect-plot\">{plot}</figure>" : null
                )
            )
        );
    }

    /// <summary>The lines the console ends with: how it ended, the culprit and its files.</summary>
    public static IReadOnlyList<string> Summary(BisectRecord record)
    {
        var lines = new List<string> { $"bisect {record.Metric}: {record.Conclusion}" };
        if (record.Culprit is { } culprit)
        {
            lines.Add(
                $"culprit: {culprit.Commit.Hash} \"{culprit.Commit.Subject}\", {culprit.Commit.Author}, {culprit.Commit.AuthorDate:yyyy-MM-dd HH:mm zzz}"
            );
            lines.Add(
                $"its files ({culprit.Files.Count}): {string.Join(", ", culprit.Files.Take(8).Select(f => f.Path))}{(culprit.Files.Count > 8 ? ", …" : "")}"
            );
        }
        lines.Add($"steps: {string.Join("; ", record.Steps.Select(s => $"{s.Commit[..12]} {Said(s)}"))}");
        return lines;
    }

    public static string Markdown(BisectRecord record)
    {
        var text = new StringBuilder();
        var commits = record.Commits;
        text.AppendLine($"# Bisection of {record.Metric}{(record.Case is null ? "" : $" ({record.Case})")}");
        text.AppendLine();
        text.AppendLine(
            $"GOOD `{record.Good}` ({commits[0].Short}), BAD `{record.Bad}` ({commits[^1].Short}) in `{record.Source}`: {commits.Count - 1} commit(s) after GOOD on BAD's "
                + (
                    record.MergeBase is null
                        ? "first-parent line (`git log --ancestry-path --first-parent GOOD..BAD`; a merge is one commit). "
                        : $"first-parent line from their merge base {commits[1].Short} on (GOOD is not an ancestor of BAD: `git log --ancestry-path --first-parent $(git merge-base GOOD BAD)..BAD`, the merge base measured first after BAD; a merge is one commit). "
                )
                + "Every step ran GOOD against one commit, both built from source, "
                + $"and read the verdict of {record.Metric}{(record.Direction is null ? "" : $"; BAD is {record.Direction}, the step's direction")}."
        );
        text.AppendLine();
        text.AppendLine($"**{Capital(record.Conclusion ?? "still measuring")}.**");
        text.AppendLine();
        if (record.Culprit is { } culprit)
        {
            text.AppendLine("## The culprit");
            text.AppendLine();
            text.AppendLine(
                $"`{culprit.Commit.Hash}` \"{Escape(culprit.Commit.Subject)}\", {Escape(culprit.Commit.Author)}, {culprit.Commit.AuthorDate.ToString("yyyy-MM-dd HH:mm zzz", CultureInfo.InvariantCulture)}"
            );
            text.AppendLine();
            text.AppendLine("| file | added | deleted |");
            text.AppendLine("|---|---:|---:|");
            foreach (var file in culprit.Files)
            {
                text.AppendLine(
                    $"| `{Escape(file.Path)}` | {(file.Added?.ToString(CultureInfo.InvariantCulture) ?? "binary")} | {(file.Deleted?.ToString(CultureInfo.InvariantCulture) ?? "binary")} |"
                );
            }
            text.AppendLine();
            if (culprit.Merged.Count > 0)
            {
                text.AppendLine(
                    $"A merge: it brought in {culprit.Merged.Count} commit(s), any of which may hold the step (bisect them with GOOD at the merge's first parent and BAD at one of them):"
                );
                text.AppendLine();
                foreach (var merged in culprit.Merged)
                {
                    text.AppendLine(
                        $"- `{merged.Short}` \"{Escape(merged.Subject)}\", {merged.AuthorDate.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)}"
                    );
                }
                text.AppendLine();
            }
        }
        else if (record.CandidateCommits.Count > 1)
        {
            text.AppendLine("## The commits it may be");
            text.AppendLine();
            foreach (var hash in record.CandidateCommits)
            {
                var commit = commits.First(c => c.Hash == hash);
                text.AppendLine(
                    $"- `{commit.Short}` \"{Escape(commit.Subject)}\", {commit.AuthorDate.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)}: {Said(record.Steps.FirstOrDefault(s => s.Commit == hash))}"
                );
            }
            text.AppendLine();
        }
        text.AppendLine("## The steps");
        text.AppendLine();
        text.AppendLine(
            "| step | commit | subject | position | verdict | ratio | 95 % interval | detects ≥ | so | folder |"
        );
        text.AppendLine("|---:|---|---|---:|---|---:|---|---:|---|---|");
        foreach (var step in record.Steps)
        {
            var m = step.Measurement;
            var commit = commits[step.Index];
            text.AppendLine(
                $"| {step.Number} | `{commit.Short}` | {Escape(commit.Subject)} | {step.Index} of {commits.Count - 1} | {m.Verdict ?? "-"} | {F(m.Ratio)} | "
                    + $"{(m.Low is { } low && m.High is { } high ? $"{F(low)} – {F(high)}" : "-")} | {(m.DetectsPercent is { } d ? $"{d.ToString("0.#", CultureInfo.InvariantCulture)} %" : "-")} | "
                    + $"{Outcome(step)}{(m.Skipped is { } why ? $": {Escape(why)}" : "")} | {(m.Folder is null ? "-" : $"[{m.Folder}]({m.Folder.Replace('\\', '/')})")} |"
            );
        }
        text.AppendLine();
        text.AppendLine($"![{record.Metric}, candidate over GOOD, along the commits]({PlotFile})");
        text.AppendLine();
        text.AppendLine(
            "`bad`: the verdict is BAD's (the step is at or before the commit); `good`: `same`, or the other way; `unknown`: the interval straddled the threshold "
                + "within the step's budget, never guessed, and passed over like a skip; `skip`: the commit did not build or its workload could not run. "
                + "Each step's run, with its page and verdicts, is in its folder."
        );
        return text.ToString();
    }

    /// <summary>The ratio to GOOD (log scale) with each step's interval, at each measured commit's place in the range; the threshold's band and the culprit marked.</summary>
    public static string Plot(BisectRecord record)
    {
        const double Width = 900,
            Height = 300,
            Left = 60,
            Right = 20,
            Top = 20,
            Bottom = 70;
        var n = record.Commits.Count - 1;
        var measured = record.Steps.Where(s => s.Measurement.Ratio is > 0).ToList();
        var threshold =
            record.Steps.Select(s => s.Measurement.ThresholdPercent).FirstOrDefault(t => t is not null) ?? 2;
        var values = measured
            .SelectMany(s =>
                new[]
                {
                    s.Measurement.Ratio!.Value,
                    s.Measurement.Low ?? s.Measurement.Ratio.Value,
                    s.Measurement.High ?? s.Measurement.Ratio.Value,
                }
            )
            .Where(v => v > 0)
            .Append(1 + threshold / 100)
            .Append(1 / (1 + threshold / 100))
            .ToList();
        var (low, high) = (Math.Log(values.Min()), Math.Log(values.Max()));
        var pad = Math.Max(0.02, (high - low) * 0.08);
        (low, high) = (low - pad, high + pad);
        double X(int index) => Left + (n == 0 ? 0 : index * (Width - Left - Right) / n);
        double Y(double ratio) => Top + (high - Math.Log(ratio)) / (high - low) * (Height - Top - Bottom);
        var svg = new StringBuilder(
            $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{R(Width)}\" height=\"{R(Height)}\" viewBox=\"0 0 {R(Width)} {R(Height)}\" role=\"img\" "
                + $"aria-label=\"{E(record.Metric)}: candidate over GOOD along the commits\" font-family=\"sans-serif\" font-size=\"11\">"
        );
        svg.Append(
            $"<rect x=\"{R(Left)}\" y=\"{R(Top)}\" width=\"{R(Width - Left - Right)}\" height=\"{R(Height - Top - Bottom)}\" fill=\"#fafafa\" stroke=\"#ccc\"/>"
        );
        var up = 1 + threshold / 100;
        svg.Append(
            $"<rect class=\"threshold\" x=\"{R(Left)}\" y=\"{R(Y(up))}\" width=\"{R(Width - Left - Right)}\" height=\"{R(Y(1 / up) - Y(up))}\" fill=\"#dde8f6\"/>"
        );
        svg.Append(
            $"<line x1=\"{R(Left)}\" y1=\"{R(Y(1))}\" x2=\"{R(Width - Right)}\" y2=\"{R(Y(1))}\" stroke=\"#88a\"/>"
        );
        foreach (var tick in new[] { Math.Exp(low + pad), 1.0, Math.Exp(high - pad) }.Distinct())
        {
            svg.Append(
                $"<text x=\"{R(Left - 4)}\" y=\"{R(Y(tick) + 4)}\" text-anchor=\"end\">{E(tick.ToString("0.###", CultureInfo.InvariantCulture))}</text>"
            );
        }
        if (
            record.Culprit is { } culprit
            && record.Commits.ToList().FindIndex(c => c.Hash == culprit.Commit.Hash) is var at and > 0
        )
        {
            var x = (X(at - 1) + X(at)) / 2;
            svg.Append(
                $"<line class=\"culprit\" x1=\"{R(x)}\" y1=\"{R(Top)}\" x2=\"{R(x)}\" y2=\"{R(Height - Bottom)}\" stroke=\"#d22\" stroke-dasharray=\"5,4\"/>"
            );
        }
        // GOOD is every step's baseline: its ratio is 1 by definition.
        svg.Append(
            $"<circle class=\"good-ref\" cx=\"{R(X(0))}\" cy=\"{R(Y(1))}\" r=\"4\" fill=\"#2a2\"><title>GOOD {E(record.Commits[0].Short)}: the baseline</title></circle>"
        );
        foreach (var step in record.Steps)
        {
            var m = step.Measurement;
            var colour = step.Outcome switch
            {
                StepOutcome.Bad => "#d22",
                StepOutcome.Good => "#2a2",
                StepOutcome.Unknown => "#c90",
                _ => "#888",
            };
            var x = X(step.Index);
            if (m.Ratio is > 0 and var ratio)
            {
                if (m.Low is > 0 and var lo && m.High is > 0 and var hi)
                {
                    svg.Append(
                        $"<line x1=\"{R(x)}\" y1=\"{R(Y(lo))}\" x2=\"{R(x)}\" y2=\"{R(Y(hi))}\" stroke=\"{colour}\"/>"
                    );
                }
                svg.Append(
                    $"<circle class=\"step {step.Outcome.ToString().ToLowerInvariant()}\" cx=\"{R(x)}\" cy=\"{R(Y(ratio))}\" r=\"4\" fill=\"{colour}\">"
                        + $"<title>step {step.Number}: {E(step.Commit[..12])} {E(m.Verdict)} {F(ratio)}</title></circle>"
                );
            }
            else
            {
                svg.Append(
                    $"<text class=\"step {step.Outcome.ToString().ToLowerInvariant()}\" x=\"{R(x)}\" y=\"{R(Height - Bottom - 4)}\" text-anchor=\"middle\" fill=\"{colour}\">×"
                        + $"<title>step {step.Number}: {E(step.Commit[..12])} {E(step.Outcome.ToString().ToLowerInvariant())}: {E(m.Skipped)}</title></text>"
                );
            }
            svg.Append(
                $"<text x=\"{R(x)}\" y=\"{R(Height - Bottom + 14)}\" text-anchor=\"end\" transform=\"rotate(-40 {R(x)} {R(Height - Bottom + 14)})\">{E(step.Commit[..8])}</text>"
            );
        }
        svg.Append($"<text x=\"{R(Left)}\" y=\"{R(Height - 6)}\">GOOD {E(record.Commits[0].Short[..8])}</text>");
        svg.Append(
            $"<text x=\"{R(Width - Right)}\" y=\"{R(Height - 6)}\" text-anchor=\"end\">BAD {E(record.Commits[^1].Short[..8])}: {n} commit(s); {E(record.Metric)}, candidate / GOOD (log scale), band ±{E(threshold.ToString("0.##", CultureInfo.InvariantCulture))} %</text>"
        );
        return svg.Append("</svg>").ToString();
    }

    private static string Said(BisectStep? step) =>
        step is null ? "not measured"
        : step.Measurement.Skipped is not null ? Outcome(step)
        : $"{step.Measurement.Verdict} {F(step.Measurement.Ratio)} ({Outcome(step)})";

    private static string Outcome(BisectStep step) => step.Outcome.ToString().ToLowerInvariant();

    /// <summary>The sentence's first letter up, unless it starts with a commit's hash (whose case is its own).</summary>
    private static string Capital(string text) =>
        text.Length == 0 || text.Split(' ')[0].All(Uri.IsHexDigit) ? text : char.ToUpperInvariant(text[0]) + text[1..];

    private static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);

    private static string F(double? value) => value is { } v ? v.ToString("0.000", CultureInfo.InvariantCulture) : "-";

    private static string R(double v) => v.ToString("0.#", CultureInfo.InvariantCulture);

    private static string E(string? text) => WebUtility.HtmlEncode(text ?? "");
}
