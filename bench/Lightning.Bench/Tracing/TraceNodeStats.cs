namespace Lightning.Bench.Tracing;

/// <summary>What one node's trace socket delivered during a case.</summary>
/// <param name="DroppedByHarness">Datagrams the harness received but could not queue (its writer fell behind).</param>
/// <param name="Malformed">Payloads that are not a valid span (cut at 2048 bytes, unescaped tags…); kept raw in spans.jsonl.</param>
/// <param name="Emitted">Spans the node's processes wrote to Core Lightning's own trace file while the harness collected (--trace-check), else null.</param>
/// <param name="Arrived">How many of those <paramref name="Emitted"/> spans reached the harness (matched by span id).</param>
internal sealed record TraceNodeStats(
    string Node,
    long Received,
    long DroppedByHarness,
    long Malformed,
    long Bytes,
    int KernelBufferBytes,
    long? Emitted = null,
    long? Arrived = null
)
{
    /// <summary>Spans the node emitted that never reached the harness's socket (full kernel queue), when known.</summary>
    public long? Lost => Emitted is { } emitted && Arrived is { } arrived ? emitted - arrived : null;
}
