using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class FailedColumn(RunResults results, OperationNoun noun) : CaseColumn(results)
{
    public override string ColumnName => noun.IsPayment ? "Failed" : "Errors";

    public override string Legend =>
        noun.IsPayment
            ? "Payments that failed in measured iterations (see payments.csv for their errors)"
            : $"Measured {noun.Plural} that did not end as their workload expects (see payments.csv for each one's reason)";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) => Figure(caseKey, f => f.Errors, "0");
}
