namespace Lightning.Bench.Tracing;

/// <summary>What one node's trace socket delivered during a case.</summary>
/// <param name="DroppedByHarness">Datagrams the harness received but could not queue (its writer fell behind).</param>
/// <param name="Malformed">Payloads that are not a valid span (cut at 2048 bytes, unescaped tags…); kept raw in spans.jsonl.</param>
public sealed record TraceNodeStats(string Node, long Received, long DroppedByHarness, long Malformed, long Bytes, int KernelBufferBytes);
