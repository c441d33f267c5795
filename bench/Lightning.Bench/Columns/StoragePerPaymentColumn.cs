using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class StoragePerPaymentColumn(RunResults results, OperationNoun noun) : CaseColumn(results)
{
    public override string ColumnName => $"Disk KB/{noun.Short}";

    public override string Legend =>
        $"Bytes the Lightning nodes' processes wrote to storage per {noun.Singular} in measured iterations that ended as its workload expects (their database and logs), in KB";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey)?.Figures?.Costs is { WrittenKbByNode.Count: > 0 } costs
            ? Format(costs.WrittenKb, "0.0")
            : "-";
}
