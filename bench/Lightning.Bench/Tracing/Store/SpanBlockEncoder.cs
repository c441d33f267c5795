using System.Buffers;
using System.Text.Json;

namespace Lightning.Bench.Tracing.Store;

/// <summary>
/// Turns up to <see cref="MaxLines"/> lines of one case's spans.jsonl into the columns of one block. A line goes in as
/// columns only when writing it back from them gives its exact bytes; otherwise what cannot be rebuilt is kept verbatim.
/// </summary>
internal sealed class SpanBlockEncoder
{
    /// <summary>Lines per block: what a reader holds at once; parent links reach only within a block.</summary>
    public const int MaxLines = 1 << 16;

    /// <summary>Bytes of lines per block, at most (and the line that crosses it): a block's memory stays bounded whatever the lines' length.</summary>
    public const int MaxBytes = 1 << 26;

    private readonly ColumnWriter kinds = new();
    private readonly ColumnWriter verbatim = new();
    private readonly StringColumnWriter nodes = new();
    private readonly ColumnWriter received = new();
    private readonly ColumnWriter ids = new();
    private readonly StringColumnWriter names = new();
    private readonly ColumnWriter ends = new();
    private readonly ColumnWriter durations = new();
    private readonly StringColumnWriter services = new();
    private readonly ColumnWriter parents = new();
    private readonly ColumnWriter parentIds = new();
    private readonly ColumnWriter traces = new();
    private readonly ColumnWriter traceIds = new();
    private readonly StringColumnWriter tags = new();

    // Per span of the block, to link parents and traces once the block is complete (a parent ends, and arrives, after its children).
    private readonly List<ulong> spanIds = new();
    private readonly List<ulong?> spanParents = new();
    private readonly List<(ulong High, ulong Low)> spanTraces = new();

    private readonly ArrayBufferWriter<byte> node = new();
    private readonly ArrayBufferWriter<byte> payload = new();
    private readonly ArrayBufferWriter<byte> rebuiltPayload = new();
    private readonly ArrayBufferWriter<byte> rebuiltLine = new();
    private readonly Utf8JsonWriter lineWriter;
    private long previousReceived;
    private long previousEnd;

    public SpanBlockEncoder() => lineWriter = SpanJsonLines.LineWriter(rebuiltLine);

    public int Lines { get; private set; }

    /// <summary>Bytes of the block's lines so far.</summary>
    public long Bytes { get; private set; }

    /// <summary>Lines by how they were kept, over every block so far.</summary>
    public long[] LinesByKind { get; } = new long[3];

    /// <summary>Adds one line (without its newline).</summary>
    public void Add(ReadOnlySpan<byte> line)
    {
        Lines++;
        Bytes += line.Length;
        var kind = Envelope(line, out var receivedMicros) ? StoredLineKind.Payload : StoredLineKind.Verbatim;
        if (kind == StoredLineKind.Payload && ClnSpanPayload.TryRead(payload.WrittenSpan, rebuiltPayload, out var span))
        {
            kind = StoredLineKind.Span;
            var text = payload.WrittenSpan;
            ids.WriteUInt64(span.Id);
            names.Add(text[span.Name]);
            var end = unchecked(span.Timestamp + span.Duration);
            ends.WriteSigned(unchecked(end - previousEnd));
            previousEnd = end;
            durations.WriteSigned(span.Duration);
            services.Add(text[span.Service]);
            tags.Add(text[span.Tags]);
            spanIds.Add(span.Id);
            spanParents.Add(span.ParentId);
            spanTraces.Add((span.TraceHigh, span.TraceLow));
        }
        kinds.WriteByte((byte)kind);
        if (kind == StoredLineKind.Verbatim)
        {
            verbatim.WriteText(line);
            return;
        }
        nodes.Add(node.WrittenSpan);
        received.WriteSigned(unchecked(receivedMicros - previousReceived));
        previousReceived = receivedMicros;
        if (kind == StoredLineKind.Payload)
        {
            verbatim.WriteText(payload.WrittenSpan);
        }
    }

    /// <summary>The block's columns, in <see cref="SpanColumn"/> order; the encoder is then empty for the next block.</summary>
    public IReadOnlyList<byte[]> Complete()
    {
        var parentIndex = LinkParents();
        LinkTraces(parentIndex);
        foreach (var (kind, count) in Kinds())
        {
            LinesByKind[kind] += count;
        }
        byte[][] columns =
        [
            kinds.Written.ToArray(),
            verbatim.Written.ToArray(),
            nodes.Refs.Written.ToArray(),
            nodes.Texts.Written.ToArray(),
            received.Written.ToArray(),
            ids.Written.ToArray(),
            names.Refs.Written.ToArray(),
            names.Texts.Written.ToArray(),
            ends.Written.ToArray(),
            durations.Written.ToArray(),
            services.Refs.Written.ToArray(),
            services.Texts.Written.ToArray(),
            parents.Written.ToArray(),
            parentIds.Written.ToArray(),
            traces.Written.ToArray(),
            traceIds.Written.ToArray(),
            tags.Refs.Written.ToArray(),
            tags.Texts.Written.ToArray(),
        ];
        Clear();
        return columns;
    }

    /// <summary>Whether the line is the harness's own {"node","recv_us","payload"} and writing it again gives the same bytes.</summary>
    private bool Envelope(ReadOnlySpan<byte> line, out long receivedMicros)
    {
        if (!SpanJsonLines.TryReadLine(line, node, out receivedMicros, payload))
        {
            return false;
        }
        rebuiltLine.ResetWrittenCount();
        try
        {
            SpanJsonLines.WriteLine(lineWriter, node.WrittenSpan, receivedMicros, payload.WrittenSpan);
        }
        catch (ArgumentException)
        {
            return false;
        }
        return rebuiltLine.WrittenSpan.SequenceEqual(line);
    }

    /// <summary>Each span's parent as the distance to the span of that id in the block, where there is one.</summary>
    private int?[] LinkParents()
    {
        var byId = new Dictionary<ulong, int>(spanIds.Count);
        for (var i = 0; i < spanIds.Count; i++)
        {
            byId[spanIds[i]] = i;
        }
        var parentIndex = new int?[spanIds.Count];
        for (var i = 0; i < spanIds.Count; i++)
        {
            if (spanParents[i] is not { } parent)
            {
                parents.WriteVarint(0);
            }
            else if (byId.TryGetValue(parent, out var j) && j != i)
            {
                parentIndex[i] = j;
                parents.WriteVarint(2 + Zigzag(j - i));
            }
            else
            {
                parents.WriteVarint(1);
                parentIds.WriteUInt64(parent);
            }
        }
        return parentIndex;
    }

    /// <summary>
    /// Trace ids from the block's last span back to its first: a child (read after its parent, going backwards) names
    /// no trace of its own when it shares its parent's; a trace seen before is a short reference.
    /// </summary>
    private void LinkTraces(int?[] parentIndex)
    {
        var introduced = new Dictionary<(ulong, ulong), int>();
        for (var i = spanTraces.Count - 1; i >= 0; i--)
        {
            var trace = spanTraces[i];
            if (parentIndex[i] is { } j && j > i && spanTraces[j] == trace)
            {
                traces.WriteVarint(0);
            }
            else if (introduced.TryGetValue(trace, out var k))
            {
                traces.WriteVarint(1 + (ulong)(introduced.Count - k));
            }
            else
            {
                traces.WriteVarint(1);
                traceIds.WriteUInt64(trace.High);
                traceIds.WriteUInt64(trace.Low);
                introduced[trace] = introduced.Count;
            }
        }
    }

    private IEnumerable<(int Kind, int Count)> Kinds() =>
        kinds.Written.ToArray().GroupBy(k => (int)k).Select(g => (g.Key, g.Count()));

    private static ulong Zigzag(long value) => (ulong)((value << 1) ^ (value >> 63));

    private void Clear()
    {
        foreach (
            var column in new[]
            {
                kinds,
                verbatim,
                received,
                ids,
                ends,
                durations,
                parents,
                parentIds,
                traces,
                traceIds,
            }
        )
        {
            column.Clear();
        }
        foreach (var table in new[] { nodes, names, services, tags })
        {
            table.Clear();
        }
        spanIds.Clear();
        spanParents.Clear();
        spanTraces.Clear();
        previousReceived = 0;
        previousEnd = 0;
        Lines = 0;
        Bytes = 0;
    }
}
