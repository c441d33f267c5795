using System.Text.Json;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Parses one datagram (a Zipkin v2 array holding one span). Never throws: Core Lightning cuts payloads at 2048 bytes
/// and does not escape tag values, so a share of payloads is not JSON; those come back as null with a reason.
/// </summary>
internal static partial class SpanParser
{
    private static readonly JsonDocumentOptions Options = new() { MaxDepth = 8 };

    public static Span? Parse(string node, ReadOnlySpan<byte> payload, out string? problem)
    {
        problem = null;
        try
        {
            var reader = new Utf8JsonReader(payload, new JsonReaderOptions { MaxDepth = 8 });
            using var document = JsonDocument.ParseValue(ref reader);
            var root = document.RootElement;
            var span = root.ValueKind == JsonValueKind.Array && root.GetArrayLength() >= 1 ? root[0] : root;
            if (span.ValueKind != JsonValueKind.Object)
            {
                problem = "not a span object";
                return null;
            }
            var id = String(span, "id");
            var name = String(span, "name");
            var traceId = String(span, "traceId");
            if (
                id is null
                || name is null
                || traceId is null
                || !span.TryGetProperty("timestamp", out var ts)
                || !ts.TryGetInt64(out var timestamp)
                || !span.TryGetProperty("duration", out var du)
                || !du.TryGetInt64(out var duration)
            )
            {
                problem = "missing id, name, traceId, timestamp or duration";
                return null;
            }
            var tags = new Dictionary<string, string>();
            if (span.TryGetProperty("tags", out var tagObject) && tagObject.ValueKind == JsonValueKind.Object)
            {
                foreach (var tag in tagObject.EnumerateObject())
                {
                    tags[tag.Name] =
                        tag.Value.ValueKind == JsonValueKind.String ? tag.Value.GetString()! : tag.Value.GetRawText();
                }
            }
            return new Span(node, id, String(span, "parentId"), traceId, name, timestamp, duration, tags);
        }
        catch (JsonException e)
        {
            problem = payload.Length == 2048 ? "cut at 2048 bytes" : $"invalid JSON ({e.Message.Split('.')[0]})";
            return null;
        }
        catch (InvalidOperationException e)
        {
            problem = e.Message;
            return null;
        }
    }

    /// <summary>The span id of a payload, also when it does not parse (cut at 2048 bytes: the id comes first).</summary>
    public static string? IdOf(string payload) => Id().Match(payload) is { Success: true } m ? m.Groups[1].Value : null;

    [GeneratedRegex("^\\[\\{\"id\":\"([0-9a-f]+)\"")]
    private static partial Regex Id();

    private static string? String(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()
            : null;
}
