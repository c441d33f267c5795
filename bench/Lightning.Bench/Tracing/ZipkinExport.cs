using System.Text.Json;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Writes spans as one Zipkin v2 JSON array, each node as its own serviceName. Spans joined to a payment get one trace
/// id per payment, so Zipkin or Jaeger show a payment across nodes as one trace; parent links are kept only inside a trace.
/// </summary>
public static class ZipkinExport
{
    public const string FileName = "zipkin.json";

    public static void Write(string path, IEnumerable<Span> spans, Func<Span, long?> paymentOf, string runId)
    {
        var runBits = (ulong)(uint)StableHash(runId) << 32;
        var list = spans.ToList();
        var traceOf = new Dictionary<(string Node, string Id), string>();
        foreach (var span in list)
        {
            traceOf.TryAdd((span.Node, span.Id), paymentOf(span) is { } id ? $"{runBits:x16}{id:x16}" : span.TraceId);
        }
        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = false });
        json.WriteStartArray();
        foreach (var span in list)
        {
            var traceId = paymentOf(span) is { } own ? $"{runBits:x16}{own:x16}" : span.TraceId;
            json.WriteStartObject();
            json.WriteString("traceId", traceId);
            json.WriteString("id", span.Id);
            if (span.ParentId is not null && traceOf.TryGetValue((span.Node, span.ParentId), out var parentTrace) && parentTrace == traceId)
            {
                json.WriteString("parentId", span.ParentId);
            }
            json.WriteString("name", span.Name);
            json.WriteNumber("timestamp", span.TimestampMicros);
            json.WriteNumber("duration", span.DurationMicros);
            json.WriteStartObject("localEndpoint");
            json.WriteString("serviceName", span.Node);
            json.WriteEndObject();
            json.WriteStartObject("tags");
            foreach (var (key, value) in span.Tags)
            {
                json.WriteString(key, value);
            }
            if (paymentOf(span) is { } payment)
            {
                json.WriteString("lnbench.payment", payment.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
            json.WriteEndObject();
            json.WriteEndObject();
        }
        json.WriteEndArray();
    }

    /// <summary>Concatenates the arrays of several export files into one.</summary>
    public static void Merge(string path, IEnumerable<string> parts)
    {
        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream);
        json.WriteStartArray();
        foreach (var part in parts.Where(File.Exists))
        {
            using var document = JsonDocument.Parse(File.ReadAllBytes(part));
            foreach (var span in document.RootElement.EnumerateArray())
            {
                span.WriteTo(json);
            }
        }
        json.WriteEndArray();
    }

    private static int StableHash(string text)
    {
        var hash = 17;
        foreach (var c in text)
        {
            hash = unchecked(hash * 31 + c);
        }
        return hash;
    }
}
