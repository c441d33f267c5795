using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Columns;

/// <summary>Whether the gap to the baseline build exceeds iteration noise (Welch's test on iteration times).</summary>
public sealed class BeyondNoiseColumn(RunResults results, IReadOnlyList<string> builds) : CaseColumn(results)
{
    public override string ColumnName => "Beyond noise";

    public override string Legend =>
        $"Whether the difference to the baseline build is larger than run-to-run noise: Welch's t-test on iteration times, p < {BuildComparison.SignificanceLevel}";

    public override bool IsNumeric => false;

    public override bool IsAvailable(Summary summary) => builds.Count > 1;

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase)
    {
        var baseline = CaseKey.Counterpart(benchmarkCase, nameof(ScenarioBenchmark.Build), builds[0]);
        return baseline == caseKey ? "baseline" : baseline is null ? "-" : Results.Compare(caseKey, baseline)?.Verdict ?? "-";
    }
}
