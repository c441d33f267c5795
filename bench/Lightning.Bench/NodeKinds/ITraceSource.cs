using Lightning.Bench.Tracing;

namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A kind's spans: how they read and join (<see cref="ITraceJoin"/>), and the node's own record of the spans it emitted,
/// the ground truth of --trace-check.
/// </summary>
internal interface ITraceSource : ITraceJoin
{
    /// <summary>
    /// Where the node writes the spans it emits when asked: the path given to it is PREFIX in its folder, it writes
    /// PREFIX.* (one file per process), and a run keeps them in its case folder under PREFIX/NODE/. Null when the kind
    /// keeps no such record.
    /// </summary>
    string? EmittedSpansPrefix { get; }

    /// <summary>
    /// Of the spans the node's own files (<paramref name="lines"/>) record as ended by <paramref name="stoppedUnixMicros"/>,
    /// how many there were, and how many of them arrived (their ids are in <paramref name="receivedIds"/>).
    /// </summary>
    (long Emitted, long Arrived) CountEmitted(
        IEnumerable<string> lines,
        long stoppedUnixMicros,
        IReadOnlySet<string> receivedIds
    );
}
