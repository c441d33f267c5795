using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class PaymentsPerSecondColumn(RunResults results) : CaseColumn(results)
{
    public override string ColumnName => "Payments/s";

    public override string Legend => "Successful payments per second: payments per invocation × success share ÷ Mean";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) => Figure(caseKey, f => f.PaymentsPerSecond, "0.0");
}
