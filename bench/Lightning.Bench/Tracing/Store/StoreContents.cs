namespace Lightning.Bench.Tracing.Store;

/// <summary>What a span store holds: cases, lines, and how the lines were kept (<see cref="StoredLineKind"/>).</summary>
internal sealed record StoreContents(int Cases, long SpanLines, long PayloadLines, long VerbatimLines)
{
    public long Lines => SpanLines + PayloadLines + VerbatimLines;
}
