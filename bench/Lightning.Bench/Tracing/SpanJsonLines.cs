using System.Buffers;
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

    private static readonly JsonWriterOptions Options = new() { SkipValidation = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static long Convert(string spoolPath, IReadOnlyList<string> nodes, string jsonlPath)
    {
        long lines = 0;
        using var file = new FileStream(jsonlPath, FileMode.Create, FileAccess.Write, FileShare.Read, 1 << 16);
        var buffer = new ArrayBufferWriter<byte>(1 << 16);
        using var json = new Utf8JsonWriter(buffer, Options);
        foreach (var (nodeIndex, received, payload) in SpoolSegment.Read(spoolPath))
        {
            json.Reset();
            json.WriteStartObject();
            json.WriteString("node", nodes[nodeIndex]);
            json.WriteNumber("recv_us", received);
            if (Utf8.IsValid(payload))
            {
                json.WriteString("payload", payload);
            }
            else
            {
                json.WriteBase64String("payload_b64", payload);
            }
            json.WriteEndObject();
            json.Flush();
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
}
