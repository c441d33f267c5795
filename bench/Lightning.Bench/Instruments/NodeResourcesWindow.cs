using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// What each Lightning node wrote to storage during an invocation, and its memory after it: read just before and just
/// after, outside the timing (on cgroup v1 a reading lists every process of each node, about 1 ms a node).
/// </summary>
internal sealed class NodeResourcesWindow(INodeMeter meter, CaseResults results)
    : ReadingWindow<IReadOnlyDictionary<string, NodeResourceSample>>
{
    protected override Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadAsync(CancellationToken ct) =>
        meter.ReadResourcesAsync(ct);

    protected override void Record(
        Invocation invocation,
        IReadOnlyDictionary<string, NodeResourceSample> before,
        IReadOnlyDictionary<string, NodeResourceSample> after
    ) =>
        results.RecordResources(
            invocation.Number,
            after
                .Where(a => before.ContainsKey(a.Key))
                .ToDictionary(a => a.Key, a => (a.Value.WrittenBytes - before[a.Key].WrittenBytes, a.Value))
        );
}
