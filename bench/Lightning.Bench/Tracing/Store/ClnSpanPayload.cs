using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;

namespace Lightning.Bench.Tracing.Store;

/// <summary>
/// Core Lightning's span datagram, one Zipkin v2 span in an array, its keys always in one order:
/// [{"id":ID,"name":…,"timestamp":N,"duration":N,"localEndpoint":{"serviceName":…},"parentId":ID,"tags":{…},"traceId":TRACE}]
/// (parentId only on child spans; ids 16 and trace ids 32 lower-case hex digits). A payload is read into its fields
/// only if it is valid JSON in exactly this layout and writing the fields back gives the same bytes.
/// </summary>
internal static class ClnSpanPayload
{
    private static readonly JsonReaderOptions Options = new() { MaxDepth = 16 };

    public static bool TryRead(ReadOnlySpan<byte> payload, ArrayBufferWriter<byte> scratch, out ClnSpanFields fields)
    {
        fields = default;
        try
        {
            if (!TryParse(payload, out fields))
            {
                return false;
            }
        }
        catch (JsonException)
        {
            return false;
        }
        scratch.ResetWrittenCount();
        Write(scratch, fields, payload[fields.Name], payload[fields.Service], payload[fields.Tags]);
        return scratch.WrittenSpan.SequenceEqual(payload);
    }

    public static void Write(
        IBufferWriter<byte> output,
        in ClnSpanFields fields,
        ReadOnlySpan<byte> name,
        ReadOnlySpan<byte> service,
        ReadOnlySpan<byte> tags
    )
    {
        Literal(output, "[{\"id\":\""u8);
        Hex(output, fields.Id);
        Literal(output, "\",\"name\":\""u8);
        Literal(output, name);
        Literal(output, "\",\"timestamp\":"u8);
        Number(output, fields.Timestamp);
        Literal(output, ",\"duration\":"u8);
        Number(output, fields.Duration);
        Literal(output, ",\"localEndpoint\":{\"serviceName\":\""u8);
        Literal(output, service);
        Literal(output, "\"},"u8);
        if (fields.ParentId is { } parent)
        {
            Literal(output, "\"parentId\":\""u8);
            Hex(output, parent);
            Literal(output, "\","u8);
        }
        Literal(output, "\"tags\":{"u8);
        Literal(output, tags);
        Literal(output, "},\"traceId\":\""u8);
        Hex(output, fields.TraceHigh);
        Hex(output, fields.TraceLow);
        Literal(output, "\"}]"u8);
    }

    private static bool TryParse(ReadOnlySpan<byte> payload, out ClnSpanFields fields)
    {
        fields = default;
        var reader = new Utf8JsonReader(payload, Options);
        if (
            !Token(ref reader, JsonTokenType.StartArray)
            || !Token(ref reader, JsonTokenType.StartObject)
            || !Property(ref reader, "id"u8)
            || !Id(ref reader, out var id)
            || !Property(ref reader, "name"u8)
            || !String(ref reader, out var name)
            || !Property(ref reader, "timestamp"u8)
            || !Integer(ref reader, out var timestamp)
            || !Property(ref reader, "duration"u8)
            || !Integer(ref reader, out var duration)
            || !Property(ref reader, "localEndpoint"u8)
            || !Token(ref reader, JsonTokenType.StartObject)
            || !Property(ref reader, "serviceName"u8)
            || !String(ref reader, out var service)
            || !Token(ref reader, JsonTokenType.EndObject)
            || !reader.Read()
            || reader.TokenType != JsonTokenType.PropertyName
        )
        {
            return false;
        }
        ulong? parent = null;
        if (reader.ValueTextEquals("parentId"u8))
        {
            if (!Id(ref reader, out var parentId) || !reader.Read() || reader.TokenType != JsonTokenType.PropertyName)
            {
                return false;
            }
            parent = parentId;
        }
        if (!reader.ValueTextEquals("tags"u8) || !Token(ref reader, JsonTokenType.StartObject))
        {
            return false;
        }
        var tagsStart = (int)reader.BytesConsumed;
        // Whatever the tags hold, as long as it is JSON: they are kept as text.
        reader.Skip();
        var tags = tagsStart..(int)reader.TokenStartIndex;
        if (
            !Property(ref reader, "traceId"u8)
            || !reader.Read()
            || reader.TokenType != JsonTokenType.String
            || reader.ValueIsEscaped
            || reader.ValueSpan.Length != 32
            || !TryHex(reader.ValueSpan[..16], out var high)
            || !TryHex(reader.ValueSpan[16..], out var low)
            || !Token(ref reader, JsonTokenType.EndObject)
            || !Token(ref reader, JsonTokenType.EndArray)
            || reader.Read()
        )
        {
            return false;
        }
        fields = new ClnSpanFields(id, name, timestamp, duration, service, parent, tags, high, low);
        return true;
    }

    private static bool Token(ref Utf8JsonReader reader, JsonTokenType type) =>
        reader.Read() && reader.TokenType == type;

    private static bool Property(ref Utf8JsonReader reader, ReadOnlySpan<byte> name) =>
        reader.Read()
        && reader.TokenType == JsonTokenType.PropertyName
        && !reader.ValueIsEscaped
        && reader.ValueSpan.SequenceEqual(name);

    private static bool String(ref Utf8JsonReader reader, out Range value)
    {
        value = default;
        if (!reader.Read() || reader.TokenType != JsonTokenType.String)
        {
            return false;
        }
        var start = (int)reader.TokenStartIndex + 1;
        value = start..(start + reader.ValueSpan.Length);
        return true;
    }

    private static bool Integer(ref Utf8JsonReader reader, out long value)
    {
        value = 0;
        return reader.Read() && reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out value);
    }

    private static bool Id(ref Utf8JsonReader reader, out ulong value)
    {
        value = 0;
        return reader.Read()
            && reader.TokenType == JsonTokenType.String
            && !reader.ValueIsEscaped
            && reader.ValueSpan.Length == 16
            && TryHex(reader.ValueSpan, out value);
    }

    /// <summary>16 lower-case hex digits (upper case would not be written back as it was).</summary>
    private static bool TryHex(ReadOnlySpan<byte> digits, out ulong value)
    {
        value = 0;
        foreach (var c in digits)
        {
            int nibble = c switch
            {
                >= (byte)'0' and <= (byte)'9' => c - '0',
                >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
                _ => -1,
            };
            if (nibble < 0)
            {
                return false;
            }
            value = (value << 4) | (uint)nibble;
        }
        return true;
    }

    private static void Hex(IBufferWriter<byte> output, ulong value)
    {
        var span = output.GetSpan(16);
        for (var i = 15; i >= 0; i--)
        {
            span[i] = (byte)"0123456789abcdef"[(int)(value & 0xf)];
            value >>= 4;
        }
        output.Advance(16);
    }

    private static void Number(IBufferWriter<byte> output, long value)
    {
        var span = output.GetSpan(20);
        Utf8Formatter.TryFormat(value, span, out var written);
        output.Advance(written);
    }

    private static void Literal(IBufferWriter<byte> output, ReadOnlySpan<byte> bytes) => output.Write(bytes);
}
