using System.Globalization;
using Lightning.Bench.Csv;
using Lightning.Bench.Options;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak's findings from soak.csv and soak-nodes.csv: a summary of every series (min, median, max, p99), the trends
/// (latency per 10,000 payments, each node's memory per hour and database and CPU per payment, the harness's own
/// memory per hour) with 95 % intervals and a verdict each, and the budgets with pass/fail; written as soak-report.md
/// (<see cref="SoakReportMarkdown"/>) and soak.json (<see cref="SoakJson"/>), and told on the console (<see cref="Lines"/>).
/// </summary>
internal static class SoakReport
{
    public const double PaymentsPerTrendUnit = 10_000;
    public const double WarmUpShare = 0.1;

    /// <summary>
    /// The smallest growth of a process's memory that is called a leak, in KB per payment (in the last half of the
    /// steady part, on its own: <see cref="GrowthJudgement.Memory"/>). Healthy Core Lightning soaks here grew their
    /// nodes' memory by at most about 1 KB per payment over a 3-minute soak (0.92, 0.70 to 1.11), 0.29 over 10 minutes
    /// and 0.15 over 30; a node that keeps an invoice's 16 KB grows by 16 to 17.
    /// </summary>
    public const double LeakKbPerPayment = 1;

    /// <summary>Reads the soak's files in <paramref name="directory"/>, writes soak-report.md and soak.json there, and returns what it found.</summary>
    public static SoakFindings Write(string directory, SoakFacts facts)
    {
        var findings = Analyse(directory, facts);
        SoakReportMarkdown.Write(directory, facts, findings);
        SoakJson.Write(directory, facts, findings);
        return findings;
    }

    /// <summary>The summary series, the trends over the steady part, the whole soak's figures and the budgets.</summary>
    public static SoakFindings Analyse(string directory, SoakFacts facts)
    {
        var windows = CsvReader.Read(Path.Combine(directory, SoakWindowsCsv.FileName));
        var nodes = CsvReader.Read(Path.Combine(directory, SoakNodesCsv.FileName));
        var names = nodes.Select(r => r["node"]).Distinct().ToList();
        var measured = windows.Where(w => w.Number("payments") > 0).ToList();
        // Trends leave out the first tenth of the soak: caches, pools and the database's first pages fill there, which
        // says nothing about the hours after.
        var warmUp = facts.Elapsed.TotalSeconds * WarmUpShare;
        bool Steady(CsvRow r) => r.Number("elapsed_s") >= warmUp;

        var summary = new List<SoakSeries>
        {
            new("payments/s", "/s", windows.Skip(1).Select(w => w.Number("payments_per_s")).ToList()),
            new("mean latency", "ms", measured.Select(w => w.Number("mean_ms")).ToList()),
            new("p50 latency", "ms", measured.Select(w => w.Number("p50_ms")).ToList()),
            new("p95 latency", "ms", measured.Select(w => w.Number("p95_ms")).ToList()),
            new("p99 latency", "ms", measured.Select(w => w.Number("p99_ms")).ToList()),
            new("harness RSS", "MB", windows.Select(w => w.Number("harness_rss_mb")).ToList()),
        };
        foreach (var name in names)
        {
            var rows = nodes.Where(r => r["node"] == name).ToList();
            summary.Add(new($"{name} CPU", "%", rows.Select(r => r.Number("cpu_percent")).ToList()));
            summary.Add(
                new($"{name} CPU per payment", "ms", rows.Select(r => r.Number("cpu_ms_per_payment")).ToList())
            );
            summary.Add(new($"{name} RSS", "MB", rows.Select(r => r.Number("rss_mb")).ToList()));
            summary.Add(
                new($"{name} memory (with page cache)", "MB", rows.Select(r => r.Number("memory_mb")).ToList())
            );
            if (rows.Any(r => r.Number("data_mb") > 0))
            {
                summary.Add(new($"{name} database", "MB", rows.Select(r => r.Number("data_mb")).ToList()));
            }
            summary.Add(new($"{name} written to storage", "MB", rows.Select(r => r.Number("written_mb")).ToList()));
            summary.Add(new($"{name} open files", "", rows.Select(r => r.Number("open_files")).ToList()));
        }

        var trends = new List<SoakTrend>
        {
            new(
                "mean latency",
                "10,000 payments",
                TrendEstimate.Of(
                    measured.Where(Steady).Select(w => w.Number("payments_total")).ToList(),
                    measured.Where(Steady).Select(w => w.Number("mean_ms")).ToList(),
                    PaymentsPerTrendUnit,
                    facts.ThresholdPercent
                )
            ),
            Memory("harness RSS", windows.Where(Steady).ToList(), "harness_rss_mb"),
        };
        foreach (var name in names)
        {
            var rows = nodes.Where(r => r["node"] == name).Where(Steady).ToList();
            trends.Add(Memory($"{name} RSS", rows, "rss_mb"));
            if (rows.Any(r => r.Number("data_mb") > 0))
            {
                trends.Add(
                    SoakTrend.Of(
                        $"{name} database",
                        "payment",
                        "KB",
                        GrowthJudgement.Storage(
                            rows.Select(r => r.Number("payments_total")).ToList(),
                            rows.Select(r => r.Number("data_mb") * 1024).ToList(),
                            per: 1
                        )
                    )
                );
            }
            var perPayment = rows.Where(r => double.IsFinite(r.Number("cpu_ms_per_payment"))).ToList();
            if (perPayment.Count >= 3)
            {
                trends.Add(
                    new(
                        $"{name} CPU per payment",
                        "10,000 payments",
                        TrendEstimate.Of(
                            perPayment.Select(r => r.Number("payments_total")).ToList(),
                            perPayment.Select(r => r.Number("cpu_ms_per_payment")).ToList(),
                            PaymentsPerTrendUnit,
                            facts.ThresholdPercent
                        )
                    )
                );
            }
        }

        var seconds = facts.Elapsed.TotalSeconds;
        var figures = new Dictionary<string, double>
        {
            ["p50"] = facts.Latency.Percentile(0.50),
            ["p95"] = facts.Latency.Percentile(0.95),
            ["p99"] = facts.Latency.Percentile(0.99),
            ["rss"] = names
                .Where(n => n != "bitcoind")
                .Select(n =>
                    nodes.Where(r => r["node"] == n).Select(r => r.Number("rss_mb")).DefaultIfEmpty(double.NaN).Max()
                )
                .DefaultIfEmpty(double.NaN)
                .Max(),
            ["cpu-per-payment"] = CpuPerPayment(nodes, names, facts),
            ["pps"] = seconds > 0 ? facts.Succeeded / seconds : double.NaN,
            ["failures"] = facts.Failed,
        };
        var budgets = facts
            .Budgets.Select(b => new SoakBudgetResult(
                b.Text,
                SoakBudget.Metrics[b.Metric].Meaning,
                figures[b.Metric],
                SoakBudget.Metrics[b.Metric].Unit,
                b.Holds(figures[b.Metric])
            ))
            .ToList();
        return new SoakFindings(windows.Count, warmUp, summary, trends, figures, budgets);
    }

    /// <summary>The soak's lines for the console: the whole soak's figures, then each trend and budget.</summary>
    public static IReadOnlyList<string> Lines(SoakFindings findings)
    {
        var figures = findings.Figures;
        var lines = new List<string>
        {
            $"p50 {Figure(figures["p50"])} ms, p95 {Figure(figures["p95"])} ms, p99 {Figure(figures["p99"])} ms, {Figure(figures["pps"])} payments/s, CPU {Figure(figures["cpu-per-payment"])} ms per payment",
        };
        lines.AddRange(
            findings.Trends.Select(t => $"{t.Series}: {Change(t)} per {t.Per} ({Interval(t)}): {t.Verdict}")
        );
        lines.AddRange(
            findings.Budgets.Select(b =>
                $"budget {b.Budget}: {Figure(b.Value)} {b.Unit}: {(b.Holds ? "pass" : "FAIL")}"
            )
        );
        return lines;
    }

    /// <summary>A process's memory in KB per payment, judged for a leak (<see cref="LeakKbPerPayment"/>).</summary>
    private static SoakTrend Memory(string series, IReadOnlyList<CsvRow> rows, string column) =>
        SoakTrend.Of(
            series,
            "payment",
            "KB",
            GrowthJudgement.Memory(
                rows.Select(r => r.Number("payments_total")).ToList(),
                rows.Select(r => r.Number(column) * 1024).ToList(),
                per: 1,
                LeakKbPerPayment
            )
        );

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
                    total +=
                        percent / 100 * (seconds - previous) * 1e9
                        - facts.IdleCpuNsPerSecond[name] * (seconds - previous);
                }
                previous = seconds;
            }
        }
        return total / 1e6 / facts.Succeeded;
    }

    /// <summary>A figure as the report and the console show it: whole above 100, else up to two decimals; "-" when unknown.</summary>
    public static string Figure(double value) =>
        double.IsFinite(value)
            ? value.ToString(Math.Abs(value) >= 100 ? "0" : "0.##", CultureInfo.InvariantCulture)
            : "-";

    /// <summary>A trend's figure: in its own unit (KB) where it has one, else in percent of its median.</summary>
    public static string Change(SoakTrend trend) =>
        trend.Unit is null
            ? Percent(trend.Estimate.Relative)
            : Signed(trend.Estimate.Slope * trend.Estimate.Per) + " " + trend.Unit;

    /// <summary>A trend's 95 % interval, as <see cref="Change"/> tells its figure.</summary>
    public static string Interval(SoakTrend trend) =>
        trend.Unit is null
            ? $"{Percent(trend.Estimate.RelativeLow)} to {Percent(trend.Estimate.RelativeHigh)}"
            : $"{Signed(trend.Estimate.AbsoluteInterval.Low)} to {Signed(trend.Estimate.AbsoluteInterval.High)} {trend.Unit}";

    private static string Signed(double value) =>
        double.IsFinite(value)
            ? value.ToString(Math.Abs(value) >= 100 ? "+0;-0;0" : "+0.00;-0.00;0.00", CultureInfo.InvariantCulture)
            : "-";

    /// <summary>A relative change as a signed percentage with one decimal; "-" when unknown.</summary>
    public static string Percent(double fraction) =>
        double.IsFinite(fraction)
            ? (fraction * 100).ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + " %"
            : "-";
}
