using System.Globalization;
using System.Text;
using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Soak;

/// <summary>
/// soak-report.md and soak.json from soak.csv and soak-nodes.csv: a summary table (min, median, max, p99 of every
/// series), the trends (latency per 10,000 payments, each node's memory and database per hour, the harness's own
/// memory per hour) with 95 % intervals and a verdict each, and the budgets with pass/fail.
/// </summary>
public static class SoakReport
{
    public const string FileName = "soak-report.md";
    public const string JsonFileName = "soak.json";
    public const double PaymentsPerTrendUnit = 10_000;
    public const double WarmUpShare = 0.1;

    public static SoakSummary Write(string directory, SoakFacts facts)
    {
        var windows = CsvReader.Read(Path.Combine(directory, SoakWindowsCsv.FileName));
        var nodes = CsvReader.Read(Path.Combine(directory, SoakNodesCsv.FileName));
        var names = nodes.Select(r => r["node"]).Distinct().ToList();
        var measured = windows.Where(w => w.Number("payments") > 0).ToList();
        // Trends leave out the first tenth of the soak: caches, pools and the database's first pages fill there, which
        // says nothing about the hours after.
        var warmUp = facts.Elapsed.TotalSeconds * WarmUpShare;
        bool Steady(CsvRow r) => r.Number("elapsed_s") >= warmUp;

        var summary = new List<(string Series, string Unit, IReadOnlyList<double> Values)>
        {
            ("payments/s", "/s", windows.Skip(1).Select(w => w.Number("payments_per_s")).ToList()),
            ("mean latency", "ms", measured.Select(w => w.Number("mean_ms")).ToList()),
            ("p50 latency", "ms", measured.Select(w => w.Number("p50_ms")).ToList()),
            ("p95 latency", "ms", measured.Select(w => w.Number("p95_ms")).ToList()),
            ("p99 latency", "ms", measured.Select(w => w.Number("p99_ms")).ToList()),
            ("harness RSS", "MB", windows.Select(w => w.Number("harness_rss_mb")).ToList()),
        };
        foreach (var name in names)
        {
            var rows = nodes.Where(r => r["node"] == name).ToList();
            summary.Add(($"{name} CPU", "%", rows.Select(r => r.Number("cpu_percent")).ToList()));
            summary.Add(($"{name} CPU per payment", "ms", rows.Select(r => r.Number("cpu_ms_per_payment")).ToList()));
            summary.Add(($"{name} RSS", "MB", rows.Select(r => r.Number("rss_mb")).ToList()));
            summary.Add(($"{name} memory (with page cache)", "MB", rows.Select(r => r.Number("memory_mb")).ToList()));
            if (rows.Any(r => r.Number("data_mb") > 0))
            {
                summary.Add(($"{name} database", "MB", rows.Select(r => r.Number("data_mb")).ToList()));
            }
            summary.Add(($"{name} written to storage", "MB", rows.Select(r => r.Number("written_mb")).ToList()));
            summary.Add(($"{name} open files", "", rows.Select(r => r.Number("open_files")).ToList()));
        }

        var trends = new List<SoakTrend>
        {
            new("mean latency", "10,000 payments", TrendEstimate.Of(
                measured.Where(Steady).Select(w => w.Number("payments_total")).ToList(), measured.Where(Steady).Select(w => w.Number("mean_ms")).ToList(),
                PaymentsPerTrendUnit, facts.ThresholdPercent)),
            new("harness RSS", "hour", TrendEstimate.Of(
                windows.Where(Steady).Select(w => w.Number("elapsed_s") / 3600).ToList(), windows.Where(Steady).Select(w => w.Number("harness_rss_mb")).ToList(), 1, facts.ThresholdPercent)),
        };
        foreach (var name in names)
        {
            var rows = nodes.Where(r => r["node"] == name).Where(Steady).ToList();
            var hours = rows.Select(r => r.Number("elapsed_s") / 3600).ToList();
            trends.Add(new($"{name} RSS", "hour", TrendEstimate.Of(hours, rows.Select(r => r.Number("rss_mb")).ToList(), 1, facts.ThresholdPercent)));
            if (rows.Any(r => r.Number("data_mb") > 0))
            {
                trends.Add(new($"{name} database", "10,000 payments", TrendEstimate.Of(
                    rows.Select(r => r.Number("payments_total")).ToList(), rows.Select(r => r.Number("data_mb")).ToList(), PaymentsPerTrendUnit, facts.ThresholdPercent)));
            }
            var perPayment = rows.Where(r => double.IsFinite(r.Number("cpu_ms_per_payment"))).ToList();
            if (perPayment.Count >= 3)
            {
                trends.Add(new($"{name} CPU per payment", "10,000 payments", TrendEstimate.Of(
                    perPayment.Select(r => r.Number("payments_total")).ToList(), perPayment.Select(r => r.Number("cpu_ms_per_payment")).ToList(),
                    PaymentsPerTrendUnit, facts.ThresholdPercent)));
            }
        }

        var cpuPerPayment = CpuPerPayment(nodes, names, facts);
        var seconds = facts.Elapsed.TotalSeconds;
        var figures = new Dictionary<string, double>
        {
            ["p50"] = facts.Latency.Percentile(0.50),
            ["p95"] = facts.Latency.Percentile(0.95),
            ["p99"] = facts.Latency.Percentile(0.99),
            ["rss"] = names.Where(n => n != "bitcoind").Select(n => nodes.Where(r => r["node"] == n).Select(r => r.Number("rss_mb")).DefaultIfEmpty(double.NaN).Max()).DefaultIfEmpty(double.NaN).Max(),
            ["cpu-per-payment"] = cpuPerPayment,
            ["pps"] = seconds > 0 ? facts.Succeeded / seconds : double.NaN,
            ["failures"] = facts.Failed,
        };
        var budgets = facts.Budgets.Select(b => new SoakBudgetResult(b.Text, SoakBudget.Metrics[b.Metric].Meaning, figures[b.Metric],
            SoakBudget.Metrics[b.Metric].Unit, b.Holds(figures[b.Metric]))).ToList();

        var md = new StringBuilder();
        md.AppendLine($"# Soak: {facts.Scenario}").AppendLine();
        md.AppendLine($"{facts.Succeeded:N0} payments ({facts.Failed:N0} failed) in {facts.Elapsed.TotalMinutes:0.0} min (asked: {facts.Limit}), sampled every {facts.SampleInterval.TotalSeconds:0} s: {windows.Count} windows.");
        md.AppendLine($"Ended by: {facts.StoppedBy ?? "its limit"}.").AppendLine();
        md.AppendLine($"Over the whole soak: p50 {F(figures["p50"])} ms, p95 {F(figures["p95"])} ms, p99 {F(figures["p99"])} ms (1 % buckets), {F(figures["pps"])} payments/s, CPU of the Lightning nodes per payment {F(cpuPerPayment)} ms (idle rate subtracted).").AppendLine();
        md.AppendLine("## Series (per window)").AppendLine();
        md.AppendLine("| series | unit | min | median | max | p99 |").AppendLine("|---|---|---:|---:|---:|---:|");
        foreach (var (series, unit, values) in summary)
        {
            var finite = values.Where(double.IsFinite).Order().ToList();
            if (finite.Count == 0)
            {
                continue;
            }
            md.AppendLine($"| {series} | {unit} | {F(finite[0])} | {F(CaseFigures.Percentile(finite, 0.5))} | {F(finite[^1])} | {F(CaseFigures.Percentile(finite, 0.99))} |");
        }
        md.AppendLine().AppendLine("## Trends").AppendLine();
        md.AppendLine($"Over the steady part of the soak (the first {WarmUpShare:P0} of it, {warmUp:0} s, is left out as warm-up). Theil–Sen slope relative to the series' median, 95 % interval from a moving-block bootstrap of the windows; `flat` when the whole interval is within ±{facts.ThresholdPercent:0.##} % per unit (--threshold), `growing`/`shrinking` when it is wholly beyond, `unknown: run longer` otherwise. A database grows with every payment by design (invoices and payments are kept): its trend says how fast.").AppendLine();
        md.AppendLine("| series | per | median | trend | 95 % interval | verdict |").AppendLine("|---|---|---:|---:|---|---|");
        foreach (var trend in trends)
        {
            var e = trend.Estimate;
            md.AppendLine($"| {trend.Series} | {trend.Per} | {F(e.Median)} | {P(e.Relative)} | {P(e.RelativeLow)} to {P(e.RelativeHigh)} | {e.Verdict} |");
        }
        if (budgets.Count > 0)
        {
            md.AppendLine().AppendLine("## Budgets").AppendLine();
            md.AppendLine("| budget | figure | value | result |").AppendLine("|---|---|---:|---|");
            foreach (var b in budgets)
            {
                md.AppendLine($"| `{b.Budget}` | {b.Meaning} | {F(b.Value)} {b.Unit} | {(b.Holds ? "pass" : "**FAIL**")} |");
            }
        }
        md.AppendLine().AppendLine($"Data: `{SoakWindowsCsv.FileName}` (one row per window), `{SoakNodesCsv.FileName}` (one row per node per window), plots `soak-latency.png` and `soak-nodes.png`.");
        File.WriteAllText(Path.Combine(directory, FileName), md.ToString());

        var json = new
        {
            scenario = facts.Scenario,
            limit = facts.Limit,
            elapsed_s = facts.Elapsed.TotalSeconds,
            payments = facts.Succeeded,
            failed = facts.Failed,
            stopped_by = facts.StoppedBy,
            figures = figures.ToDictionary(f => f.Key, f => double.IsFinite(f.Value) ? (double?)f.Value : null),
            trends = trends.Select(t => new
            {
                series = t.Series, per = t.Per, median = N(t.Estimate.Median), relative = N(t.Estimate.Relative),
                low = N(t.Estimate.RelativeLow), high = N(t.Estimate.RelativeHigh), verdict = t.Estimate.Verdict,
            }),
            budgets = budgets.Select(b => new { budget = b.Budget, value = N(b.Value), unit = b.Unit, holds = b.Holds }),
        };
        File.WriteAllText(Path.Combine(directory, JsonFileName), JsonSerializer.Serialize(json, new JsonSerializerOptions { WriteIndented = true }));

        var lines = new List<string>
        {
            $"p50 {F(figures["p50"])} ms, p95 {F(figures["p95"])} ms, p99 {F(figures["p99"])} ms, {F(figures["pps"])} payments/s, CPU {F(cpuPerPayment)} ms per payment",
        };
        lines.AddRange(trends.Select(t => $"{t.Series}: {P(t.Estimate.Relative)} per {t.Per} ({P(t.Estimate.RelativeLow)} to {P(t.Estimate.RelativeHigh)}): {t.Estimate.Verdict}"));
        lines.AddRange(budgets.Select(b => $"budget {b.Budget}: {F(b.Value)} {b.Unit}: {(b.Holds ? "pass" : "FAIL")}"));
        return new SoakSummary(lines, budgets.All(b => b.Holds), trends, budgets);
    }

    /// <summary>CPU of the Lightning nodes (not bitcoind) from the first sample to the last, idle rate subtracted, per successful payment.</summary>
    private static double CpuPerPayment(IReadOnlyList<CsvRow> nodes, IReadOnlyList<string> names, SoakFacts facts)
    {
        if (facts.IdleCpuNsPerSecond is null || facts.Succeeded == 0)
        {
            return double.NaN;
        }
        var total = 0.0;
        foreach (var name in names.Where(n => facts.IdleCpuNsPerSecond.ContainsKey(n)))
        {
            var rows = nodes.Where(r => r["node"] == name).ToList();
            // CPU percent per window × window length = CPU seconds; summed over the windows.
            var previous = rows.Count > 0 ? rows[0].Number("elapsed_s") : 0;
            foreach (var row in rows.Skip(1))
            {
                var seconds = row.Number("elapsed_s");
                var percent = row.Number("cpu_percent");
                if (double.IsFinite(percent))
                {
                    total += percent / 100 * (seconds - previous) * 1e9 - facts.IdleCpuNsPerSecond[name] * (seconds - previous);
                }
                previous = seconds;
            }
        }
        return total / 1e6 / facts.Succeeded;
    }

    private static double? N(double value) => double.IsFinite(value) ? value : null;

    private static string F(double value) => double.IsFinite(value) ? value.ToString(Math.Abs(value) >= 100 ? "0" : "0.##", CultureInfo.InvariantCulture) : "-";

    private static string P(double fraction) => double.IsFinite(fraction) ? (fraction * 100).ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + " %" : "-";
}
