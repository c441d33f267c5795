using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Columns;

/// <summary>Throughput with this trace mode over throughput of the same case and topology index with tracing off: one pair's ratio.</summary>
internal sealed class VersusTracesOffColumn(RunResults results, IReadOnlyList<string> traceModes) : CaseColumn(results)
{
    public override string ColumnName => "vs traces off";

    public override string Legend =>
        "Payments/s ÷ Payments/s of the same case and Topology index with Traces=off: one pair; the verdict over all topologies follows the table";

    public override bool IsNumeric => false;

    public override bool IsAvailable(Summary summary) => traceModes.Count > 1 && traceModes.Contains(TraceModes.Off);

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase)
    {
        var off = CaseKey.Counterpart(benchmarkCase, nameof(ScenarioBenchmark.Traces), TraceModes.Off);
        if (off == caseKey)
        {
            return "baseline";
        }
        var figures = Results.Find(caseKey)?.Figures;
        var offFigures = off is null ? null : Results.Find(off)?.Figures;
        return figures is null || offFigures is null
            ? "-"
            : Format(figures.PaymentsPerSecond / offFigures.PaymentsPerSecond, "0.00");
    }
}
