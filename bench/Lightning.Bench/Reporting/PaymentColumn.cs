using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Payments;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Reporting;

/// <summary>A thin BenchmarkDotNet adapter over <see cref="CaseFigures"/>: one column per figure.</summary>
public sealed class PaymentColumn(string name, string legend, Func<CaseFigures, string> value, Func<PaymentLedger> ledger) : IColumn
{
    public string Id => $"lnbench.{name}";

    public string ColumnName => name;

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => legend;

    public static IReadOnlyList<IColumn> All(Func<PaymentLedger> ledger) =>
    [
        new PaymentColumn("Payments/s", "Successful payments per second: payments per invocation × success share ÷ Mean", f => Format(f.PaymentsPerSecond, "0.0"), ledger),
        new PaymentColumn("p50 ms", "Median latency of one successful payment (invoice + pay), measured iterations", f => Format(f.P50Ms, "0.0"), ledger),
        new PaymentColumn("p95 ms", "95th percentile latency of one successful payment, measured iterations", f => Format(f.P95Ms, "0.0"), ledger),
        new PaymentColumn("Failed", "Payments that failed in measured iterations (see payments.csv for their errors)", f => f.Failed.ToString(CultureInfo.InvariantCulture), ledger),
    ];

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var key = CaseKey.From(benchmarkCase.Parameters.Items.Select(p => new KeyValuePair<string, object>(p.Name, p.Value)));
        var results = ledger().Find(key);
        var mean = summary[benchmarkCase]?.ResultStatistics?.Mean;
        return results is null || mean is null ? "-" : value(CaseFigures.Compute(results, mean.Value));
    }

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public override string ToString() => ColumnName;

    private static string Format(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
