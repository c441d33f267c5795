using Lightning.Bench.Tracing;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// A topology's spans when its nodes run on several hosts (--place): each host's agent relays its nodes' spans into a
/// part of its own (a <see cref="RelayedTraceRecorder"/>, with its own loss accounting), and when collection ends the
/// parts are merged into the one spans.jsonl by receive time, with every node's counts, as one host's recorder writes them.
/// </summary>
internal sealed class SpreadTraceRecorder(
    IReadOnlyList<RelayedTraceRecorder> parts,
    IReadOnlyList<string> nodes,
    string spansFile
) : ISpanCollection
{
    public string SpansFile => spansFile;

    public long? StoppedUnixMicros { get; private set; }

    /// <summary>Where the part relayed by <paramref name="host"/>'s agent is kept until the merge: beside spans.jsonl.</summary>
    public static string PartFile(string spansFile, string host) =>
        Path.Combine(
            Path.GetDirectoryName(spansFile) ?? ".",
            $"{Path.GetFileNameWithoutExtension(spansFile)}.{host}{Path.GetExtension(spansFile)}"
        );

    public async Task<IReadOnlyList<TraceNodeStats>> FinishAsync(CancellationToken ct = default)
    {
        var stats = await Task.WhenAll(parts.Select(p => p.FinishAsync(ct)));
        StoppedUnixMicros = parts.Max(p => p.StoppedUnixMicros);
        SpanJsonLines.Merge(parts.Select(p => p.SpansFile).ToList(), spansFile);
        foreach (var part in parts)
        {
            File.Delete(part.SpansFile);
        }
        var byNode = stats.SelectMany(s => s).ToDictionary(s => s.Node);
        return nodes.Where(byNode.ContainsKey).Select(n => byNode[n]).ToList();
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var part in parts)
        {
            await part.DisposeAsync();
        }
    }
}
