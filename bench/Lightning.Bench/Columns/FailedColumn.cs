using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class FailedColumn(RunResults results) : CaseColumn(results)
{
    public override string ColumnName => "Failed";

    public override string Legend => "Payments that failed in measured iterations (see payments.csv for their errors)";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) => Figure(caseKey, f => f.Failed, "0");
}
