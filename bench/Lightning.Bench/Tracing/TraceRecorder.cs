namespace Lightning.Bench.Tracing;

/// <summary>
/// Collects every node's spans during one case: a socket and receive thread per node, one spool file on disk.
/// Start it before the nodes start (they look the socket up once); stop it after the last payment, which also
/// writes spans.jsonl.
/// </summary>
internal sealed class TraceRecorder : ISpanCollection
{
    /// <summary>Memory for received spans not yet on disk: absorbs bursts, bounds the harness's footprint.</summary>
    public const long SpoolMemoryBytes = 32L * 1024 * 1024;

    private readonly List<SpanCollector> collectors = new();
    private readonly SpanSpool spool;
    private readonly SpanReceiver receiver;
    private readonly IReadOnlyList<string> nodes;
    private IReadOnlyList<TraceNodeStats>? stats;

    private TraceRecorder(IReadOnlyList<(string Node, string SocketPath)> sockets, string spansFile, int queueLength)
    {
        SpansFile = spansFile;
        nodes = sockets.Select(s => s.Node).ToList();
        spool = new SpanSpool(Path.ChangeExtension(spansFile, ".spool"), SpoolMemoryBytes);
        try
        {
            for (var i = 0; i < sockets.Count; i++)
            {
                collectors.Add(new SpanCollector(sockets[i].Node, i, sockets[i].SocketPath));
            }
        }
        catch
        {
            collectors.ForEach(c => c.Dispose());
            spool.DisposeAsync().AsTask().Wait();
            throw;
        }
        receiver = new SpanReceiver(collectors, spool, queueLength);
        receiver.Start();
    }

    /// <summary>Whether one thread polls every socket (Linux with a deep kernel queue) rather than a thread blocking on each.</summary>
    public bool Polling => receiver.Polling;

    /// <summary>spans.jsonl, complete once <see cref="StopAsync"/> returns.</summary>
    public string SpansFile { get; }

    /// <param name="queueLength">The kernel's datagram queue per socket, which picks how sockets are drained
    /// (default: net.unix.max_dgram_qlen now).</param>
    public static TraceRecorder Start(
        IEnumerable<(string Node, string SocketPath)> sockets,
        string spansFile,
        int? queueLength = null
    ) => new(sockets.ToList(), spansFile, queueLength ?? DatagramQueueLimit.Current);

    public long Received => collectors.Sum(c => c.Received);

    /// <summary>
    /// Waits until the sockets are quiet (late spans of the last payments), stops receiving, and writes spans.jsonl
    /// from the spool (or, with <paramref name="writeJsonLines"/> false, leaves only the count).
    /// </summary>
    public async Task<IReadOnlyList<TraceNodeStats>> StopAsync(
        TimeSpan quietPeriod,
        bool writeJsonLines = true,
        CancellationToken ct = default
    )
    {
        if (stats is not null)
        {
            return stats;
        }
        await ISpanCollection.UntilQuietAsync(() => Received, quietPeriod, ct);
        StoppedUnixMicros = SpanCollector.UnixMicrosNow();
        receiver.Dispose();
        collectors.ForEach(c => c.Dispose());
        await spool.DisposeAsync();
        stats = collectors
            .Select(c => new TraceNodeStats(c.Node, c.Received, c.Dropped, 0, c.Bytes, c.KernelBufferBytes))
            .ToList();
        if (writeJsonLines)
        {
            SpanJsonLines.Convert(spool.Path, nodes, SpansFile);
        }
        File.Delete(spool.Path);
        return stats;
    }

    /// <summary>Quiet for 300 ms: the last payments' late spans are in.</summary>
    public Task<IReadOnlyList<TraceNodeStats>> FinishAsync(CancellationToken ct = default) =>
        StopAsync(TimeSpan.FromMilliseconds(300), ct: ct);

    /// <summary>When the sockets stopped being read (µs since the epoch): spans that ended later were not collected.</summary>
    public long? StoppedUnixMicros { get; private set; }

    /// <summary>Spool records on disk (after <see cref="StopAsync"/>: everything kept).</summary>
    public long Written => spool.Written;

    public async ValueTask DisposeAsync()
    {
        if (stats is null)
        {
            receiver.Dispose();
            collectors.ForEach(c => c.Dispose());
            await spool.DisposeAsync();
            File.Delete(spool.Path);
        }
    }
}
