namespace Lightning.Bench.Tracing.Store;

/// <summary>How a line of spans.jsonl is kept in a span store.</summary>
internal enum StoredLineKind : byte
{
    /// <summary>The whole line as read: not the harness's line format, or not written back byte for byte.</summary>
    Verbatim = 0,

    /// <summary>Node and receive time as columns; the payload as read (not Core Lightning's span layout, cut, or not JSON).</summary>
    Payload = 1,

    /// <summary>Every field a column: the payload is Core Lightning's layout and written back from them byte for byte.</summary>
    Span = 2,
}
