using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

/// <summary>A multi-part payment's parts and failed part attempts, as its payer reported them (a run with a splitting workload).</summary>
internal sealed class PartsColumn(RunResults results) : CaseColumn(results)
{
    public override string ColumnName => "Parts";

    public override string Legend =>
        "Parts per measured payment that reached the payee, and (in parentheses) part attempts that failed on the way, as the payer reported them";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey)?.Figures is { PartsPerOperation: { } parts } figures
            ? $"{Format(parts, "0.0")} ({Format(figures.FailedPartsPerOperation ?? 0, "0.0")})"
            : "-";
}
