using System.Text;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;
using static Lightning.Bench.Soak.SoakReport;

namespace Lightning.Bench.Soak;

/// <summary>soak-report.md: the soak in a few lines, the summary table of every series, the trends and the budgets.</summary>
internal static class SoakReportMarkdown
{
    public const string FileName = "soak-report.md";

    public static void Write(string directory, SoakFacts facts, SoakFindings findings)
    {
        var figures = findings.Figures;
        var md = new StringBuilder();
        md.AppendLine($"# Soak: {facts.Scenario}").AppendLine();
        md.AppendLine(
            $"{facts.Succeeded:N0} payments ({facts.Failed:N0} failed) in {facts.Elapsed.TotalMinutes:0.0} min (asked: {facts.Limit}), sampled every {facts.SampleInterval.TotalSeconds:0} s: {findings.Windows} windows."
        );
        md.AppendLine($"Ended by: {facts.StoppedBy ?? "its limit"}.").AppendLine();
        md.AppendLine(
                $"Over the whole soak: p50 {Figure(figures["p50"])} ms, p95 {Figure(figures["p95"])} ms, p99 {Figure(figures["p99"])} ms (1 % buckets), {Figure(figures["pps"])} payments/s, CPU of the Lightning nodes per payment {Figure(figures["cpu-per-payment"])} ms (idle rate subtracted)."
            )
            .AppendLine();
        md.AppendLine("## Series (per window)").AppendLine();
        md.AppendLine("| series | unit | min | median | max | p99 |").AppendLine("|---|---|---:|---:|---:|---:|");
        foreach (var (series, unit, values) in findings.Series)
        {
            var finite = values.Where(double.IsFinite).Order().ToList();
            if (finite.Count == 0)
            {
                continue;
            }
            md.AppendLine(
                $"| {series} | {unit} | {Figure(finite[0])} | {Figure(CaseFigures.Percentile(finite, 0.5))} | {Figure(finite[^1])} | {Figure(CaseFigures.Percentile(finite, 0.99))} |"
            );
        }
        md.AppendLine().AppendLine("## Trends").AppendLine();
        md.AppendLine(
                $"Over the steady part of the soak (the first {WarmUpShare:P0} of it, {findings.WarmUpSeconds:0} s, is left out as warm-up). Theil–Sen slope, 95 % interval from a moving-block bootstrap of the windows. Latency and CPU per payment in percent of the series' median: `flat` when the whole interval is within ±{facts.ThresholdPercent:0.##} % per unit (--threshold), `growing`/`shrinking` when it is wholly beyond, `unknown: run longer` otherwise."
            )
            .AppendLine();
        md.AppendLine(
                $"Memory and databases in KB per payment. Memory is `growing` (a leak) only when the last half of the steady part grows by more than {LeakKbPerPayment:0.##} KB per payment on its own: a leak keeps its pace, while caches and pools that fill in the first minutes slow down, which is `{GrowthJudgement.WarmingUp}` (it grew, and its last half surely grew less than the whole). A database grows with every payment it keeps by design: `{GrowthJudgement.WithHistory}` says what a payment costs; `{GrowthJudgement.Accelerating}` that its second half surely grew faster per payment than its first, by half again at least."
            )
            .AppendLine();
        md.AppendLine("| series | per | median | trend | 95 % interval | verdict |")
            .AppendLine("|---|---|---:|---:|---|---|");
        foreach (var trend in findings.Trends)
        {
            md.AppendLine(
                $"| {trend.Series} | {trend.Per} | {(trend.Unit == "KB" ? Figure(trend.Estimate.Median / 1024) + " MB" : Figure(trend.Estimate.Median))} | {Change(trend)} | {Interval(trend)} | {trend.Verdict} |"
            );
        }
        if (findings.Budgets.Count > 0)
        {
            md.AppendLine().AppendLine("## Budgets").AppendLine();
            md.AppendLine("| budget | figure | value | result |").AppendLine("|---|---|---:|---|");
            foreach (var b in findings.Budgets)
            {
                md.AppendLine(
                    $"| `{b.Budget}` | {b.Meaning} | {Figure(b.Value)} {b.Unit} | {(b.Holds ? "pass" : "**FAIL**")} |"
                );
            }
        }
        md.AppendLine()
            .AppendLine(
                $"Data: `{SoakWindowsCsv.FileName}` (one row per window), `{SoakNodesCsv.FileName}` (one row per node per window), plots `soak-latency.png` and `soak-nodes.png`."
            );
        AtomicFile.WriteAllText(Path.Combine(directory, FileName), md.ToString());
    }
}
