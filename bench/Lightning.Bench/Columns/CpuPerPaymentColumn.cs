using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class CpuPerPaymentColumn(RunResults results, OperationNoun noun) : CaseColumn(results)
{
    public override string ColumnName => $"CPU ms/{noun.Short}";

    public override string Legend =>
        $"CPU time (user + system, cgroups) the Lightning nodes spent per {noun.Singular} in measured iterations that ended as its workload expects, each node's idle rate subtracted";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey)?.Figures?.Cpu is { } cpu
            ? CpuPerPayment.IsWithinIdleNoise(cpu.Ms)
                ? CpuPerPayment.IdleNoise
                : Format(cpu.Ms, "0.00")
            : "-";
}
