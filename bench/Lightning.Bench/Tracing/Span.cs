namespace Lightning.Bench.Tracing;

/// <summary>A finished span from one node (Zipkin v2 fields; times in µs since the Unix epoch).</summary>
internal sealed record Span(
    string Node,
    string Id,
    string? ParentId,
    string TraceId,
    string Name,
    long TimestampMicros,
    long DurationMicros,
    IReadOnlyDictionary<string, string> Tags
)
{
    public long EndMicros => TimestampMicros + DurationMicros;
}
