using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using System.Globalization;
using Lightning.Bench.Options;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Columns;

/// <summary>The columns the harness adds to BenchmarkDotNet's table.</summary>
public static class HarnessColumns
{
    public static IReadOnlyList<IColumn> All(Func<PaymentLedger> ledger, IReadOnlyList<string> builds, bool pregeneratedInvoices, IReadOnlyList<string> traceModes)
    {
        string Figure(Summary summary, BenchmarkCase c, Func<CaseFigures, string> value)
        {
            var results = ledger().Find(KeyOf(c));
            var mean = results is null ? null : CaseFigures.MeanNanoseconds(summary[c]?.ResultStatistics?.Mean, results);
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

        // Throughput with this trace mode over throughput of the same case with tracing off, and Welch's test on them.
        string VersusTracesOff(Summary summary, BenchmarkCase c)
        {
            var off = CounterpartOf(summary, c, nameof(ScenarioBenchmark.Traces), TraceModes.Off);
            if (off == c)
            {
                return "baseline";
            }
            var values = summary[c]?.ResultStatistics?.OriginalValues;
            var offValues = off is null ? null : summary[off]?.ResultStatistics?.OriginalValues;
            var offResults = off is null ? null : ledger().Find(KeyOf(off));
            var results = ledger().Find(KeyOf(c));
            if (values is null || offValues is null || results is null || offResults is null)
            {
                return "-";
            }
            var ratio = CaseFigures.Compute(results, values.Average()).PaymentsPerSecond / CaseFigures.Compute(offResults, offValues.Average()).PaymentsPerSecond;
            return $"{Format(ratio, "0.00")}, {BuildComparison.Compare(values, offValues).Verdict}";
        }

        var multipleBuilds = (Summary _) => builds.Count > 1;
        var tracesOffToo = (Summary _) => traceModes.Count > 1 && traceModes.Contains(TraceModes.Off);
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
                (_, c) => ledger().Find(KeyOf(c)) is { } r ? (r.StoppedBy is null ? "complete" : $"partial: {r.StoppedBy}, {r.CompletedMeasuredInvocations} measured iterations completed") : "not started", numeric: false),
            new HarnessColumn("Invoices", "in payment: each payment creates its invoice and pays it; pregenerated: invoices made in setup, payments measured alone",
                (_, _) => pregeneratedInvoices ? "pregenerated" : "in payment", numeric: false),
            new HarnessColumn("Ratio", $"Mean ÷ Mean of the same case on the baseline build ({builds[0]})",
                (s, c) => Compare(s, c, r => Format(r.Ratio, "0.00")), multipleBuilds),
            new HarnessColumn("Beyond noise", $"Whether the difference to the baseline build is larger than run-to-run noise: Welch's t-test on iteration times, p < {BuildComparison.SignificanceLevel}",
                (s, c) => Compare(s, c, r => r.Verdict), multipleBuilds, numeric: false),
            new HarnessColumn("vs traces off", "Payments/s ÷ Payments/s of the same case with Traces=off, and whether the gap is beyond noise (Welch's t-test on iteration times; one run is one topology per case: repeat runs, see benchmarks/trace-overhead.sh)",
                VersusTracesOff, tracesOffToo, numeric: false),
        ];
    }

    /// <summary>The case with the same parameters on the baseline build.</summary>
    public static BenchmarkCase? BaselineOf(Summary summary, BenchmarkCase c, string baselineBuild) =>
        CounterpartOf(summary, c, nameof(ScenarioBenchmark.Build), baselineBuild);

    /// <summary>The case whose parameters are <paramref name="c"/>'s with <paramref name="parameter"/> set to <paramref name="value"/>.</summary>
    private static BenchmarkCase? CounterpartOf(Summary summary, BenchmarkCase c, string parameter, string value)
    {
        var wanted = Parameters(c);
        if (!wanted.ContainsKey(parameter))
        {
            return null;
        }
        wanted[parameter] = value;
        var key = CaseKey.From(wanted);
        return summary.BenchmarksCases.FirstOrDefault(other => KeyOf(other) == key);
    }

    public static string KeyOf(BenchmarkCase c) => CaseKey.From(Parameters(c));

    private static Dictionary<string, object> Parameters(BenchmarkCase c) =>
        c.Parameters.Items.ToDictionary(p => p.Name, p => p.Value is OrderedName ordered ? ordered.Name : p.Value);

    private static string Format(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
