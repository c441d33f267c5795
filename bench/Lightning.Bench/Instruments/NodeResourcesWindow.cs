using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// What each Lightning node wrote to storage during an invocation, and its memory after it: read just before and just
/// after, outside the timing (on cgroup v1 a reading lists every process of each node, about 1 ms a node).
/// </summary>
internal sealed class NodeResourcesWindow(INodeMeter meter, CaseResults results) : CaseInstrument
{
    private IReadOnlyDictionary<string, NodeResourceSample>? before;

    public override async Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct) => before = await meter.ReadResourcesAsync(ct);

    public override async Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        var start = before;
        before = null;
        if (start is null)
        {
            return;
        }
        var after = await meter.ReadResourcesAsync(ct);
        results.RecordResources(invocation.Number,
            after.Where(a => start.ContainsKey(a.Key)).ToDictionary(a => a.Key, a => (a.Value.WrittenBytes - start[a.Key].WrittenBytes, a.Value)));
    }
}
