using System.Text.Json;
using Lightning.Bench.Processes;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>
/// Writes spans as one Zipkin v2 JSON array, each node as its own serviceName. Spans joined to a payment get one trace
/// id per payment, so Zipkin or Jaeger show a payment across nodes as one trace; parent links are kept only inside a trace.
/// Each case with spans gets cases/CASE/zipkin.json as it ends; at the end of the run they are merged into zipkin.json.
/// </summary>
internal sealed class ZipkinExport : ICaseOutput, IRunEndOutput
{
    public const string FileName = Tracing.Store.SpanStore.ZipkinViewFile;

    public IReadOnlyList<string> Files => [$"cases/CASE/{FileName}", FileName];

    public void Write(CaseOutputContext context)
    {
        if (context.Spans is { } spans)
        {
            Write(
                Path.Combine(spans.CaseDirectory, FileName),
                () => TraceAnalysis.ReadSpans(spans.SpansFile),
                s => spans.Join.PaymentOf(s, spans.PaymentsByHash),
                context.RunId
            );
        }
    }

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        MergeCases(context.ResultsDirectory);
        return Task.CompletedTask;
    }

    /// <summary>The run's zipkin.json: the cases' files merged, in the order of their folders' names (none: no file).</summary>
    public static void MergeCases(string runDirectory)
    {
        var cases = Path.Combine(runDirectory, "cases");
        if (!Directory.Exists(cases))
        {
            return;
        }
        var parts = Directory.GetDirectories(cases).Order().Select(d => Path.Combine(d, FileName)).ToList();
        if (parts.Any(File.Exists))
        {
            Merge(Path.Combine(runDirectory, FileName), parts);
        }
    }

    /// <summary>
    /// Writes the spans <paramref name="spans"/> yields, reading them twice (it is called for each pass): first to learn
    /// which trace each span lands in (a few bytes a span), then to write them one by one.
    /// </summary>
    public static void Write(string path, Func<IEnumerable<Span>> spans, Func<Span, long?> paymentOf, string runId)
    {
        var runBits = (ulong)(uint)StableHash(runId) << 32;
        // A parent link is kept only inside one trace: each span's trace, keyed compactly by node and span id.
        var nodes = new Dictionary<string, int>();
        var traceOf = new Dictionary<(int Node, ulong Id), long>();
        foreach (var span in spans())
        {
            traceOf.TryAdd(Key(nodes, span.Node, span.Id), TraceKey(span, paymentOf(span)));
        }
        AtomicFile.Write(path, stream => WriteSpans(stream, spans, paymentOf, runBits, nodes, traceOf));
    }

    private static void WriteSpans(
        Stream stream,
        Func<IEnumerable<Span>> spans,
        Func<Span, long?> paymentOf,
        ulong runBits,
        Dictionary<string, int> nodes,
        Dictionary<(int Node, ulong Id), long> traceOf
    )
    {
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = false });
        json.WriteStartArray();
        foreach (var span in spans())
        {
            var payment = paymentOf(span);
            var traceId = payment is { } own ? $"{runBits:x16}{own:x16}" : span.TraceId;
            var trace = TraceKey(span, payment);
            json.WriteStartObject();
            json.WriteString("traceId", traceId);
            json.WriteString("id", span.Id);
            if (
                span.ParentId is not null
                && traceOf.TryGetValue(Key(nodes, span.Node, span.ParentId), out var parentTrace)
                && parentTrace == trace
            )
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
            if (payment is not null)
            {
                json.WriteString(
                    "lnbench.payment",
                    payment.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)
                );
            }
            json.WriteEndObject();
            json.WriteEndObject();
            if (json.BytesPending > 1 << 16)
            {
                json.Flush();
            }
        }
        json.WriteEndArray();
    }

    /// <summary>
    /// Concatenates the arrays of several export files into one, copying each file's elements as bytes (this harness
    /// wrote them: one array of objects), so no file is ever held whole.
    /// </summary>
    public static void Merge(string path, IEnumerable<string> parts)
    {
        AtomicFile.Write(path, output => Concatenate(output, parts));
    }

    private static void Concatenate(Stream output, IEnumerable<string> parts)
    {
        output.WriteByte((byte)'[');
        var first = true;
        foreach (var part in parts.Where(File.Exists))
        {
            using var input = File.OpenRead(part);
            var length = input.Length;
            // Skip the opening '[' and leave out the closing ']'; an empty array "[]" adds nothing.
            if (length <= 2)
            {
                continue;
            }
            if (!first)
            {
                output.WriteByte((byte)',');
            }
            first = false;
            input.Position = 1;
            var remaining = length - 2;
            var buffer = new byte[1 << 16];
            while (remaining > 0)
            {
                var read = input.Read(buffer, 0, (int)Math.Min(buffer.Length, remaining));
                if (read == 0)
                {
                    break;
                }
                output.Write(buffer, 0, read);
                remaining -= read;
            }
        }
        output.WriteByte((byte)']');
    }

    /// <summary>A span's trace as a number: its payment's id, or (not joined) a negative hash of its own trace id.</summary>
    private static long TraceKey(Span span, long? payment) => payment ?? -(long)(uint)StableHash(span.TraceId) - 1;

    /// <summary>Span ids are 16 hex digits; anything else is hashed into the same space.</summary>
    private static (int, ulong) Key(Dictionary<string, int> nodes, string node, string id)
    {
        if (!nodes.TryGetValue(node, out var index))
        {
            nodes[node] = index = nodes.Count;
        }
        return (
            index,
            ulong.TryParse(id, System.Globalization.NumberStyles.AllowHexSpecifier, null, out var value)
                ? value
                : (ulong)(uint)StableHash(id) | (1UL << 63)
        );
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
