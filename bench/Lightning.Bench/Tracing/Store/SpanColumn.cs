namespace Lightning.Bench.Tracing.Store;

/// <summary>
/// The columns of a span store block, in the order a block holds them. Each line has a kind; an envelope (node and
/// receive time) unless the line is kept verbatim; the fields of a span unless its payload is kept verbatim. Strings
/// that repeat (nodes, names, services, tag objects) are a reference column plus the texts seen for the first time.
/// </summary>
internal enum SpanColumn
{
    /// <summary>Per line, a <see cref="StoredLineKind"/>.</summary>
    Kinds,

    /// <summary>Length-prefixed: a whole line (<see cref="StoredLineKind.Verbatim"/>) or a payload (<see cref="StoredLineKind.Payload"/>), as read.</summary>
    Verbatim,

    NodeRefs,
    NodeTexts,

    /// <summary>recv_us, as the difference from the previous line's (zigzag varint).</summary>
    Received,

    /// <summary>The span id, 8 bytes.</summary>
    Ids,

    NameRefs,
    NameTexts,

    /// <summary>timestamp + duration, the span's end, as the difference from the previous span's end (zigzag varint): spans are sent as they end.</summary>
    Ends,

    /// <summary>duration (zigzag varint).</summary>
    Durations,

    ServiceRefs,
    ServiceTexts,

    /// <summary>0: no parentId; 1: its 8 bytes follow in <see cref="ParentIds"/>; else 2 + zigzag of the distance to the span of that id in the block.</summary>
    Parents,

    ParentIds,

    /// <summary>0: the parent's trace; 1: a new trace (16 bytes in <see cref="TraceIds"/>); k + 1: the k-th trace back (read from the block's end).</summary>
    Traces,

    TraceIds,

    /// <summary>The tags object's inner text, exactly as in the payload.</summary>
    TagRefs,

    TagTexts,
}
