using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Unicode;

namespace Lightning.Bench.Tracing;

/// <summary>
/// spans.jsonl: one line per received datagram, {"node","recv_us","payload"}, the payload verbatim as a string (or
/// "payload_b64" when it is not UTF-8), so nothing is lost to parsing. Written from the spool after collection stops,
/// so the receive path never pays for JSON.
/// </summary>
internal static class SpanJsonLines
{
    public const string FileName = "spans.jsonl";

    private static readonly JsonWriterOptions Options = new()
    {
        SkipValidation = true,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    public static long Convert(string spoolPath, IReadOnlyList<string> nodes, string jsonlPath)
    {
        long lines = 0;
        var names = nodes.Select(Encoding.UTF8.GetBytes).ToList();
        using var file = new FileStream(jsonlPath, FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 16);
        var buffer = new ArrayBufferWriter<byte>(1 << 16);
        using var json = new Utf8JsonWriter(buffer, Options);
        foreach (var (nodeIndex, received, payload) in SpoolSegment.Read(spoolPath))
        {
            WriteLine(json, names[nodeIndex], received, payload);
            buffer.Write("\n"u8);
            lines++;
            if (buffer.WrittenCount > 1 << 15)
            {
                file.Write(buffer.WrittenSpan);
                buffer.Clear();
            }
        }
        file.Write(buffer.WrittenSpan);
        return lines;
    }

    /// <summary>
    /// Merges spans.jsonl files, each in receive order (one host's agent's), into one by receive time, the earlier part
    /// first at equal times; lines are copied byte for byte. Returns the lines written.
    /// </summary>
    public static long Merge(IReadOnlyList<string> parts, string jsonlPath)
    {
        var readers = parts.Select(p => new StreamReader(p, Encoding.UTF8)).ToList();
        try
        {
            using var output = new StreamWriter(jsonlPath, append: false, new UTF8Encoding(false), 1 << 16)
            {
                NewLine = "\n",
            };
            var heads = new PriorityQueue<(int Part, string Line), (long Received, int Part)>();
            void Next(int part)
            {
                if (readers[part].ReadLine() is { } line)
                {
                    heads.Enqueue((part, line), (ReceivedOf(line), part));
                }
            }
            for (var part = 0; part < readers.Count; part++)
            {
                Next(part);
            }
            long lines = 0;
            while (heads.TryDequeue(out var head, out _))
            {
                output.WriteLine(head.Line);
                lines++;
                Next(head.Part);
            }
            return lines;
        }
        finally
        {
            readers.ForEach(r => r.Dispose());
        }
    }

    /// <summary>A line's recv_us, as <see cref="WriteLine"/> writes it (after the node's name, which has no quote).</summary>
    private static long ReceivedOf(string line)
    {
        const string Key = "\"recv_us\":";
        var start = line.IndexOf(Key, StringComparison.Ordinal);
        if (start < 0)
        {
            throw new InvalidDataException($"not a spans.jsonl line (no recv_us): {line[..Math.Min(line.Length, 80)]}");
        }
        start += Key.Length;
        var end = start;
        while (end < line.Length && char.IsAsciiDigit(line[end]))
        {
            end++;
        }
        return long.Parse(line.AsSpan(start, end - start), System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>A writer of lines into <paramref name="output"/>, for <see cref="WriteLine"/>.</summary>
    public static Utf8JsonWriter LineWriter(IBufferWriter<byte> output) => new(output, Options);

    /// <summary>One line, without its newline: the only way lines are written, so a line read back and written again is the same bytes.</summary>
    public static void WriteLine(
        Utf8JsonWriter json,
        ReadOnlySpan<byte> node,
        long received,
        ReadOnlySpan<byte> payload
    )
    {
        json.Reset();
        json.WriteStartObject();
        json.WriteString("node"u8, node);
        json.WriteNumber("recv_us"u8, received);
        if (Utf8.IsValid(payload))
        {
            json.WriteString("payload"u8, payload);
        }
        else
        {
            json.WriteBase64String("payload_b64"u8, payload);
        }
        json.WriteEndObject();
        json.Flush();
    }

    /// <summary>
    /// Reads a line <see cref="WriteLine"/> wrote, with a "payload" string (not "payload_b64"): the node's name and the
    /// payload unescaped, as UTF-8. False for anything else; the caller checks that writing them again gives the line.
    /// </summary>
    public static bool TryReadLine(
        ReadOnlySpan<byte> line,
        ArrayBufferWriter<byte> node,
        out long received,
        ArrayBufferWriter<byte> payload
    )
    {
        received = 0;
        node.ResetWrittenCount();
        payload.ResetWrittenCount();
        try
        {
            var reader = new Utf8JsonReader(line);
            if (
                !reader.Read()
                || reader.TokenType != JsonTokenType.StartObject
                || !Property(ref reader, "node"u8)
                || !reader.Read()
                || reader.TokenType != JsonTokenType.String
                || !Unescaped(ref reader, node)
                || !Property(ref reader, "recv_us"u8)
                || !reader.Read()
                || reader.TokenType != JsonTokenType.Number
                || !reader.TryGetInt64(out received)
                || !Property(ref reader, "payload"u8)
                || !reader.Read()
                || reader.TokenType != JsonTokenType.String
                || !Unescaped(ref reader, payload)
                || !reader.Read()
                || reader.TokenType != JsonTokenType.EndObject
                || reader.Read()
            )
            {
                return false;
            }
            return true;
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or ArgumentException)
        {
            return false;
        }
    }

    private static bool Property(ref Utf8JsonReader reader, ReadOnlySpan<byte> name) =>
        reader.Read() && reader.TokenType == JsonTokenType.PropertyName && reader.ValueTextEquals(name);

    private static bool Unescaped(ref Utf8JsonReader reader, ArrayBufferWriter<byte> target)
    {
        var written = reader.CopyString(target.GetSpan(reader.ValueSpan.Length));
        target.Advance(written);
        return true;
    }
}
