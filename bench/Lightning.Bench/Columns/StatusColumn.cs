using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

internal sealed class StatusColumn(RunResults results) : CaseColumn(results)
{
    public override string ColumnName => "Status";

    public override string Legend =>
        "complete, or partial when the case stopped early (a node died): its payments so far are in payments.csv";

    public override bool IsNumeric => false;

    protected override string Value(string caseKey, BenchmarkCase benchmarkCase) =>
        Results.Find(caseKey) switch
        {
            null or { InvocationsStarted: 0 } => "not started",
            { StoppedBy: null } => "complete",
            var r => $"partial: {r.StoppedBy}, {r.CompletedMeasuredInvocations} measured iterations completed",
        };
}
