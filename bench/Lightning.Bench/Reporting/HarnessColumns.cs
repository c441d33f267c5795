using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Payments;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Reporting;

/// <summary>The columns the harness adds to BenchmarkDotNet's table.</summary>
public static class HarnessColumns
{
    public static IReadOnlyList<IColumn> All(Func<PaymentLedger> ledger, IReadOnlyList<string> builds, bool pregeneratedInvoices)
    {
        string Figure(Summary summary, BenchmarkCase c, Func<CaseFigures, string> value)
        {
            var results = ledger().Find(KeyOf(c));
            var mean = summary[c]?.ResultStatistics?.Mean;
            return results is null || mean is null ? "-" : value(CaseFigures.Compute(results, mean.Value));
        }

        string Compare(Summary summary, BenchmarkCase c, Func<BuildComparison, string> value)
        {
            var baseline = BaselineOf(summary, c, builds[0]);
            var values = summary[c]?.ResultStatistics?.OriginalValues;
            var baselineValues = baseline is null ? null : summary[baseline]?.ResultStatistics?.OriginalValues;
            if (baseline == c)
            {
                return "baseline";
            }
            return values is null || baselineValues is null ? "-" : value(BuildComparison.Compare(values, baselineValues));
        }

        var multipleBuilds = (Summary _) => builds.Count > 1;
        return
        [
            new HarnessColumn("Payments/s", "Successful payments per second: payments per invocation × success share ÷ Mean",
                (s, c) => Figure(s, c, f => Format(f.PaymentsPerSecond, "0.0"))),
            new HarnessColumn("p50 ms", "Median latency of one successful payment in measured iterations",
                (s, c) => Figure(s, c, f => Format(f.P50Ms, "0.0"))),
            new HarnessColumn("p95 ms", "95th percentile latency of one successful payment in measured iterations",
                (s, c) => Figure(s, c, f => Format(f.P95Ms, "0.0"))),
            new HarnessColumn("Failed", "Payments that failed in measured iterations (see payments.csv for their errors)",
                (s, c) => Figure(s, c, f => f.Failed.ToString(CultureInfo.InvariantCulture))),
            new HarnessColumn("Status", "complete, or partial when the case stopped early (a node died): its payments so far are in payments.csv",
                (_, c) => ledger().Find(KeyOf(c)) is { } r ? (r.StoppedBy is null ? "complete" : $"partial: {r.StoppedBy}") : "not started", numeric: false),
            new HarnessColumn("Invoices", "in payment: each payment creates its invoice and pays it; pregenerated: invoices made in setup, payments measured alone",
                (_, _) => pregeneratedInvoices ? "pregenerated" : "in payment", numeric: false),
            new HarnessColumn("Ratio", $"Mean ÷ Mean of the same case on the baseline build ({builds[0]})",
                (s, c) => Compare(s, c, r => Format(r.Ratio, "0.00")), multipleBuilds),
            new HarnessColumn("Beyond noise", $"Whether the difference to the baseline build is larger than run-to-run noise: Welch's t-test on iteration times, p < {BuildComparison.SignificanceLevel}",
                (s, c) => Compare(s, c, r => r.Verdict), multipleBuilds, numeric: false),
        ];
    }

    /// <summary>The case with the same parameters on the baseline build.</summary>
    public static BenchmarkCase? BaselineOf(Summary summary, BenchmarkCase c, string baselineBuild)
    {
        var wanted = Parameters(c);
        if (!wanted.ContainsKey(nameof(ScenarioBenchmark.Build)))
        {
            return null;
        }
        wanted[nameof(ScenarioBenchmark.Build)] = baselineBuild;
        return summary.BenchmarksCases.FirstOrDefault(other => CaseKey.From(Parameters(other)) == CaseKey.From(wanted));
    }

    public static string KeyOf(BenchmarkCase c) => CaseKey.From(Parameters(c));

    private static Dictionary<string, object> Parameters(BenchmarkCase c) =>
        c.Parameters.Items.ToDictionary(p => p.Name, p => p.Value is BuildName build ? build.Name : p.Value);

    private static string Format(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
