using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Columns;

/// <summary>
/// Mean over the Mean of the same case and topology index on the baseline build (the first --build): one pair's ratio;
/// the verdict over all pairs is in the comparison table after BenchmarkDotNet's.
/// </summary>
internal sealed class RatioColumn(RunResults results, IReadOnlyList<string> builds) : CaseColumn(results)
{
    public override string ColumnName => "Ratio";

    public override string Legend =>
        $"Mean ÷ Mean of the same case and Topology index on the baseline build ({builds[0]}): one pair; the verdict over all topologies follows the table";

    public override bool IsAvailable(Summary summary) => builds.Count > 1;

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase)
    {
        var baseline = CaseKey.Counterpart(benchmarkCase, nameof(ScenarioBenchmark.Build), builds[0]);
        if (baseline == caseKey)
        {
            return "baseline";
        }
        var figures = Results.Find(caseKey)?.Figures;
        var baselineFigures = baseline is null ? null : Results.Find(baseline)?.Figures;
        return figures is null || baselineFigures is null
            ? "-"
            : Format(figures.MeanMs / baselineFigures.MeanMs, "0.00");
    }
}
