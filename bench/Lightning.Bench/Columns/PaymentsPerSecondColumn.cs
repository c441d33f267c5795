using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class PaymentsPerSecondColumn(RunResults results, OperationNoun noun) : CaseColumn(results)
{
    public override string ColumnName => $"{noun.PluralTitle}/s";

    public override string Legend =>
        noun.IsPayment
            ? "Successful payments per second: payments per invocation × success share ÷ Mean"
            : $"{noun.PluralTitle} per second that ended as their workload expects: {noun.Plural} per invocation × that share ÷ Mean";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Figure(caseKey, f => f.PaymentsPerSecond, "0.0");
}
