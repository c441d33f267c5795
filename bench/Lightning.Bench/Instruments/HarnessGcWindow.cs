using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>The harness's own garbage collections inside each measured invocation (see <see cref="HarnessGc"/>): innermost, so nothing else the harness does counts.</summary>
internal sealed class HarnessGcWindow(CaseResults results) : CaseInstrument
{
    private (TimeSpan Paused, int Collections) before;

    public override Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        before = (GC.GetTotalPauseDuration(), GC.CollectionCount(0));
        return Task.CompletedTask;
    }

    public override Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        if (invocation.Measured)
        {
            results.GcInInvocations.Add(
                (GC.GetTotalPauseDuration() - before.Paused, GC.CollectionCount(0) - before.Collections)
            );
        }
        return Task.CompletedTask;
    }
}
