namespace Lightning.Bench.Tracing;

/// <summary>
/// Collects every node's spans during one case: a socket and receive thread per node, one writer to spans.jsonl.
/// Start it before the nodes start (they look the socket up once); stop it after the last payment.
/// </summary>
public sealed class TraceRecorder : IAsyncDisposable
{
    /// <summary>Payload bytes queued between the receive threads and the writer: absorbs bursts, bounds memory.</summary>
    public const long QueueBytes = 64L * 1024 * 1024;

    private readonly List<SpanCollector> collectors = new();
    private readonly DatagramQueue queue = new(QueueBytes);
    private readonly Task writing;
    private IReadOnlyList<TraceNodeStats>? stats;

    private TraceRecorder(IEnumerable<(string Node, string SocketPath)> sockets, string spansFile)
    {
        SpansFile = spansFile;
        try
        {
            foreach (var (node, path) in sockets)
            {
                collectors.Add(new SpanCollector(node, path, queue));
            }
        }
        catch
        {
            collectors.ForEach(c => c.Dispose());
            throw;
        }
        var writer = new SpanFileWriter(queue, spansFile);
        writing = Task.Run(() => writer.RunAsync());
        collectors.ForEach(c => c.Start());
    }

    public string SpansFile { get; }

    public static TraceRecorder Start(IEnumerable<(string Node, string SocketPath)> sockets, string spansFile) => new(sockets, spansFile);

    public long Received => collectors.Sum(c => c.Received);

    /// <summary>Waits until the sockets are quiet (late spans of the last payments), stops receiving and flushes the file.</summary>
    public async Task<IReadOnlyList<TraceNodeStats>> StopAsync(TimeSpan quietPeriod, CancellationToken ct = default)
    {
        if (stats is not null)
        {
            return stats;
        }
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        var last = -1L;
        while (Received != last && DateTime.UtcNow < deadline)
        {
            last = Received;
            await Task.Delay(quietPeriod, ct);
        }
        collectors.ForEach(c => c.Dispose());
        queue.Complete();
        await writing;
        stats = collectors.Select(c => new TraceNodeStats(c.Node, c.Received, c.Dropped, 0, c.Bytes, c.KernelBufferBytes)).ToList();
        return stats;
    }

    public async ValueTask DisposeAsync()
    {
        if (stats is null)
        {
            collectors.ForEach(c => c.Dispose());
            queue.Complete();
            await writing;
        }
    }
}
