using System.Text;
using System.Text.Json;

namespace Lightning.Bench.Tracing;

/// <summary>The spans of one case, read back from spans.jsonl (streamed line by line) and parsed; bad payloads are counted per node.</summary>
public sealed class TraceAnalysis
{
    private const int MaxMalformedSamples = 50;

    private readonly IReadOnlyDictionary<string, HashSet<string>> malformedIds;

    private TraceAnalysis(IReadOnlyList<Span> spans, IReadOnlyDictionary<string, long> malformedByNode, IReadOnlyList<MalformedPayload> samples,
        IReadOnlyDictionary<string, HashSet<string>> malformedIds)
    {
        Spans = spans;
        this.malformedIds = malformedIds;
        MalformedByNode = malformedByNode;
        MalformedSamples = samples;
    }

    public IReadOnlyList<Span> Spans { get; }

    public IReadOnlyDictionary<string, long> MalformedByNode { get; }

    /// <summary>The first malformed payloads, raw, for the report.</summary>
    public IReadOnlyList<MalformedPayload> MalformedSamples { get; }

    /// <summary>The ids of every span a node delivered, parsed or not (a cut payload still starts with its id).</summary>
    public IReadOnlySet<string> ReceivedIds(string node)
    {
        var ids = Spans.Where(s => s.Node == node).Select(s => s.Id).ToHashSet();
        ids.UnionWith(malformedIds.GetValueOrDefault(node) ?? []);
        return ids;
    }

    public static TraceAnalysis Load(string spansFile)
    {
        var spans = new List<Span>();
        var malformed = new Dictionary<string, long>();
        var samples = new List<MalformedPayload>();
        var ids = new Dictionary<string, HashSet<string>>();
        if (!File.Exists(spansFile))
        {
            return new TraceAnalysis(spans, malformed, samples, ids);
        }
        foreach (var line in File.ReadLines(spansFile))
        {
            using var record = JsonDocument.Parse(line);
            var root = record.RootElement;
            var node = root.GetProperty("node").GetString()!;
            var received = root.GetProperty("recv_us").GetInt64();
            var payload = root.TryGetProperty("payload", out var text)
                ? Encoding.UTF8.GetBytes(text.GetString()!)
                : root.GetProperty("payload_b64").GetBytesFromBase64();
            var span = SpanParser.Parse(node, payload, out var problem);
            if (span is not null)
            {
                spans.Add(span);
                continue;
            }
            malformed[node] = malformed.GetValueOrDefault(node) + 1;
            var raw = Encoding.UTF8.GetString(payload);
            if (TraceCheck.IdOf(raw) is { } id)
            {
                (ids.TryGetValue(node, out var set) ? set : ids[node] = new HashSet<string>()).Add(id);
            }
            if (samples.Count < MaxMalformedSamples)
            {
                samples.Add(new MalformedPayload(node, received, problem ?? "unknown", raw));
            }
        }
        return new TraceAnalysis(spans, malformed, samples, ids);
    }
}
