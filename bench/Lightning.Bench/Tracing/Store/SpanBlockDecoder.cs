using System.Buffers;
using System.Text.Json;

namespace Lightning.Bench.Tracing.Store;

/// <summary>Writes back the lines of one block from its columns (<see cref="SpanBlockEncoder"/>), each followed by a newline.</summary>
internal sealed class SpanBlockDecoder
{
    private readonly ArrayBufferWriter<byte> payload = new();
    private readonly ArrayBufferWriter<byte> output = new(1 << 16);
    private readonly Utf8JsonWriter lineWriter;

    public SpanBlockDecoder() => lineWriter = SpanJsonLines.LineWriter(output);

    public void Decode(IReadOnlyList<byte[]> columns, int lines, Action<ReadOnlySpan<byte>> write)
    {
        ColumnReader Column(SpanColumn column) => new(column, columns[(int)column]);
        var kindColumn = Column(SpanColumn.Kinds);
        var kinds = kindColumn.ReadBytes(lines).ToArray();
        kindColumn.CheckEnd();
        var spanCount = kinds.Count(k => k == (byte)StoredLineKind.Span);
        var ids = Column(SpanColumn.Ids);
        var spanIds = new ulong[spanCount];
        for (var i = 0; i < spanCount; i++)
        {
            spanIds[i] = ids.ReadUInt64();
        }
        ids.CheckEnd();
        var (parentIds, parentIndex) = Parents(Column(SpanColumn.Parents), Column(SpanColumn.ParentIds), spanIds);
        var traceIds = Traces(Column(SpanColumn.Traces), Column(SpanColumn.TraceIds), parentIndex);

        var verbatim = Column(SpanColumn.Verbatim);
        var nodes = new StringColumnReader(Column(SpanColumn.NodeRefs), Column(SpanColumn.NodeTexts));
        var received = Column(SpanColumn.Received);
        var names = new StringColumnReader(Column(SpanColumn.NameRefs), Column(SpanColumn.NameTexts));
        var ends = Column(SpanColumn.Ends);
        var durations = Column(SpanColumn.Durations);
        var services = new StringColumnReader(Column(SpanColumn.ServiceRefs), Column(SpanColumn.ServiceTexts));
        var tags = new StringColumnReader(Column(SpanColumn.TagRefs), Column(SpanColumn.TagTexts));
        var previousReceived = 0L;
        var previousEnd = 0L;
        var span = 0;
        foreach (var kind in kinds)
        {
            if (kind == (byte)StoredLineKind.Verbatim)
            {
                output.Write(verbatim.ReadText());
            }
            else if (kind is (byte)StoredLineKind.Payload or (byte)StoredLineKind.Span)
            {
                var node = nodes.Next();
                var receivedMicros = unchecked(previousReceived + received.ReadSigned());
                previousReceived = receivedMicros;
                if (kind == (byte)StoredLineKind.Payload)
                {
                    SpanJsonLines.WriteLine(lineWriter, node, receivedMicros, verbatim.ReadText());
                }
                else
                {
                    var name = names.Next();
                    var end = unchecked(previousEnd + ends.ReadSigned());
                    previousEnd = end;
                    var duration = durations.ReadSigned();
                    var timestamp = unchecked(end - duration);
                    var service = services.Next();
                    var tagText = tags.Next();
                    payload.ResetWrittenCount();
                    var (high, low) = traceIds[span];
                    ClnSpanPayload.Write(
                        payload,
                        new ClnSpanFields(
                            spanIds[span],
                            default,
                            timestamp,
                            duration,
                            default,
                            parentIds[span],
                            default,
                            high,
                            low
                        ),
                        name,
                        service,
                        tagText
                    );
                    SpanJsonLines.WriteLine(lineWriter, node, receivedMicros, payload.WrittenSpan);
                    span++;
                }
            }
            else
            {
                throw new InvalidDataException(
                    $"the span store is damaged: a line of kind {kind}, which this harness does not know"
                );
            }
            output.Write("\n"u8);
            if (output.WrittenCount > 1 << 15)
            {
                write(output.WrittenSpan);
                output.ResetWrittenCount();
            }
        }
        write(output.WrittenSpan);
        output.ResetWrittenCount();
        foreach (var column in new[] { verbatim, received, ends, durations })
        {
            column.CheckEnd();
        }
        foreach (var table in new[] { nodes, names, services, tags })
        {
            table.CheckEnd();
        }
    }

    private static (ulong?[] Ids, int?[] Index) Parents(ColumnReader parents, ColumnReader rawIds, ulong[] spanIds)
    {
        var ids = new ulong?[spanIds.Length];
        var index = new int?[spanIds.Length];
        for (var i = 0; i < spanIds.Length; i++)
        {
            var value = parents.ReadVarint();
            if (value == 1)
            {
                ids[i] = rawIds.ReadUInt64();
            }
            else if (value >= 2)
            {
                var raw = value - 2;
                var j = i + ((long)(raw >> 1) ^ -(long)(raw & 1));
                if (j < 0 || j >= spanIds.Length)
                {
                    throw new InvalidDataException("the span store is damaged: a parent link leads out of its block");
                }
                index[i] = (int)j;
                ids[i] = spanIds[j];
            }
        }
        parents.CheckEnd();
        rawIds.CheckEnd();
        return (ids, index);
    }

    private static (ulong High, ulong Low)[] Traces(ColumnReader traces, ColumnReader rawIds, int?[] parentIndex)
    {
        var result = new (ulong, ulong)[parentIndex.Length];
        var introduced = new List<(ulong, ulong)>();
        for (var i = parentIndex.Length - 1; i >= 0; i--)
        {
            var value = traces.ReadVarint();
            if (value == 0)
            {
                result[i] =
                    parentIndex[i] is { } j && j > i
                        ? result[j]
                        : throw new InvalidDataException(
                            "the span store is damaged: a span takes its parent's trace but has no parent after it"
                        );
            }
            else if (value == 1)
            {
                var trace = (rawIds.ReadUInt64(), rawIds.ReadUInt64());
                introduced.Add(trace);
                result[i] = trace;
            }
            else
            {
                var back = value - 1;
                result[i] =
                    back <= (ulong)introduced.Count
                        ? introduced[introduced.Count - (int)back]
                        : throw new InvalidDataException(
                            "the span store is damaged: a trace reference leads before the block's first trace"
                        );
            }
        }
        traces.CheckEnd();
        rawIds.CheckEnd();
        return result;
    }
}
