using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

/// <summary>p50 or p95 latency of one successful payment.</summary>
internal sealed class LatencyPercentileColumn(RunResults results, int percentile) : CaseColumn(results)
{
    public override string ColumnName => $"p{percentile} ms";

    public override string Legend =>
        percentile == 50
            ? "Median latency of one successful payment in measured iterations"
            : $"{percentile}th percentile latency of one successful payment in measured iterations";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Figure(caseKey, f => percentile == 50 ? f.P50Ms : f.P95Ms, "0.0");
}
