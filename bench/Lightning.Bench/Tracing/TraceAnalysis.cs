using System.Text;
using System.Text.Json;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Reads a case's spans.jsonl one line at a time: every consumer sees each span as it is read, so a case's spans are
/// never all in memory at once (a long run has millions). Bad payloads are counted per node and a few kept raw.
/// </summary>
internal sealed class TraceAnalysis
{
    private const int MaxMalformedSamples = 50;

    private readonly Dictionary<string, long> malformedByNode = new();
    private readonly List<MalformedPayload> samples = new();
    private readonly Dictionary<string, HashSet<string>>? receivedIds;

    private TraceAnalysis(bool collectIds) =>
        receivedIds = collectIds ? new Dictionary<string, HashSet<string>>() : null;

    public IReadOnlyDictionary<string, long> MalformedByNode => malformedByNode;

    /// <summary>The first malformed payloads, raw, for the report.</summary>
    public IReadOnlyList<MalformedPayload> MalformedSamples => samples;

    /// <summary>Spans parsed.</summary>
    public long SpanCount { get; private set; }

    /// <summary>
    /// The ids of every span a node delivered, parsed or not (a cut payload still starts with its id); kept only when
    /// the scan was asked to (--trace-check compares them with the nodes' own records of what they emitted).
    /// </summary>
    public IReadOnlySet<string> ReceivedIds(string node) =>
        receivedIds is null
            ? throw new InvalidOperationException("span ids were not collected in this scan")
            : receivedIds.GetValueOrDefault(node) ?? [];

    /// <summary>One pass over <paramref name="spansFile"/>: each parsed span goes to <paramref name="onSpan"/>, then is dropped.</summary>
    public static TraceAnalysis Scan(string spansFile, Action<Span> onSpan, bool collectIds = false)
    {
        var analysis = new TraceAnalysis(collectIds);
        foreach (var (node, received, payload) in Lines(spansFile))
        {
            var span = SpanParser.Parse(node, payload, out var problem);
            if (span is not null)
            {
                analysis.SpanCount++;
                if (analysis.receivedIds is not null)
                {
                    analysis.IdsOf(node).Add(span.Id);
                }
                onSpan(span);
                continue;
            }
            analysis.malformedByNode[node] = analysis.malformedByNode.GetValueOrDefault(node) + 1;
            var raw = Encoding.UTF8.GetString(payload);
            if (analysis.receivedIds is not null && SpanParser.IdOf(raw) is { } id)
            {
                analysis.IdsOf(node).Add(id);
            }
            if (analysis.samples.Count < MaxMalformedSamples)
            {
                analysis.samples.Add(new MalformedPayload(node, received, problem ?? "unknown", raw));
            }
        }
        return analysis;
    }

    /// <summary>The parsed spans of <paramref name="spansFile"/>, read lazily (another pass over the file).</summary>
    public static IEnumerable<Span> ReadSpans(string spansFile)
    {
        foreach (var (node, _, payload) in Lines(spansFile))
        {
            if (SpanParser.Parse(node, payload, out _) is { } span)
            {
                yield return span;
            }
        }
    }

    private HashSet<string> IdsOf(string node) =>
        receivedIds!.TryGetValue(node, out var set) ? set : receivedIds[node] = new HashSet<string>();

    private static IEnumerable<(string Node, long Received, byte[] Payload)> Lines(string spansFile)
    {
        if (!File.Exists(spansFile))
        {
            yield break;
        }
        foreach (var line in File.ReadLines(spansFile))
        {
            using var record = JsonDocument.Parse(line);
            var root = record.RootElement;
            var payload = root.TryGetProperty("payload", out var text)
                ? Encoding.UTF8.GetBytes(text.GetString()!)
                : root.GetProperty("payload_b64").GetBytesFromBase64();
            yield return (root.GetProperty("node").GetString()!, root.GetProperty("recv_us").GetInt64(), payload);
        }
    }
}
