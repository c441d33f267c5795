using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

/// <summary>With --instructions: the nodes' instructions per payment, and the warning that this table's times were taken under Valgrind.</summary>
internal sealed class InstructionsPerPaymentColumn(RunResults results, OperationNoun noun) : CaseColumn(results)
{
    public override string ColumnName => $"M instr/{noun.Short}";

    public override string Legend =>
        $"Millions of instructions the Lightning nodes executed per {noun.Singular} in measured iterations that ended as its workload expects (Valgrind's callgrind), each node's idle "
        + "rate subtracted. Every node ran under Valgrind, about ten times slower, so this run's times are not shown: they are not comparable with any run's";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey) is { } c
            ? c.Figures?.Instructions is { } instructions
                ? Format(instructions.Total / 1e6, "0.000")
                : c.InstructionProblem is null
                    ? "-"
                    : "failed"
            : "-";
}
