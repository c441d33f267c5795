using System.Buffers;
using System.Text.Json;
using System.Text.Unicode;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Streams received datagrams to a JSON-lines file as they come: {"node","recv_us","payload"} with the payload kept
/// verbatim as a string (or "payload_b64" when it is not UTF-8), so memory stays flat and nothing is lost to parsing.
/// </summary>
public sealed class SpanFileWriter
{
    public const string FileName = "spans.jsonl";

    private readonly DatagramQueue input;
    private readonly string path;
    private long written;

    public SpanFileWriter(DatagramQueue input, string path)
    {
        this.input = input;
        this.path = path;
    }

    public long Written => Interlocked.Read(ref written);

    /// <summary>Writes until the queue is completed and drained.</summary>
    public async Task RunAsync(CancellationToken ct = default)
    {
        await using var file = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.Read, 1 << 16, FileOptions.Asynchronous);
        var buffer = new ArrayBufferWriter<byte>(1 << 16);
        await using var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true, Indented = false, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        while (await input.WaitToReadAsync(ct))
        {
            while (input.TryRead(out var datagram))
            {
                Write(json, datagram);
                json.Flush();
                buffer.Write("\n"u8);
                json.Reset();
                Interlocked.Increment(ref written);
                if (buffer.WrittenCount > 1 << 15)
                {
                    await file.WriteAsync(buffer.WrittenMemory, ct);
                    buffer.Clear();
                }
            }
            await file.WriteAsync(buffer.WrittenMemory, ct);
            buffer.Clear();
        }
        await file.FlushAsync(ct);
    }

    public static void Write(Utf8JsonWriter json, ReceivedDatagram datagram)
    {
        json.WriteStartObject();
        json.WriteString("node", datagram.Node);
        json.WriteNumber("recv_us", datagram.ReceivedUnixMicros);
        if (Utf8.IsValid(datagram.Payload))
        {
            json.WriteString("payload", datagram.Payload);
        }
        else
        {
            json.WriteBase64String("payload_b64", datagram.Payload);
        }
        json.WriteEndObject();
    }
}
