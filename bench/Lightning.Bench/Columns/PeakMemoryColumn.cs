using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class PeakMemoryColumn(RunResults results) : CaseColumn(results)
{
    public override string ColumnName => "Peak MB";

    public override string Legend =>
        "The largest peak memory of one Lightning node (its container's cgroup high-water mark, page cache included), and which node";

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey)?.Figures?.Costs is { PeakMbByNode.Count: > 0 } costs
            ? costs.PeakMbByNode.MaxBy(p => p.Value) is var (node, mb)
                ? $"{Format(mb, "0")} ({node})"
                : "-"
            : "-";
}
