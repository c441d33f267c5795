using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class InvoicesColumn(RunResults results, bool pregenerated) : CaseColumn(results)
{
    public override string ColumnName => "Invoices";

    public override string Legend =>
        "in payment: each payment creates its invoice and pays it; pregenerated: invoices made in setup, payments measured alone";

    public override bool IsNumeric => false;

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        pregenerated ? "pregenerated" : "in payment";
}
