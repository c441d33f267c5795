using Lightning.Bench.Tracing;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// One topology's spans arriving through an agent, fed into the path the local collector feeds: the same
/// <see cref="SpanSpool"/> (through a <see cref="SpoolCursor"/>, node by index), the same spans.jsonl, the same
/// <see cref="TraceNodeStats"/>, whose Received is the agent's socket's count and whose DroppedByHarness adds what the
/// agent dropped and what the relay lost, so received − dropped is what spans.jsonl holds, as on one host.
/// </summary>
internal sealed class RelayedTraceRecorder : ISpanCollection
{
    private readonly RelayClient client;
    private readonly IReadOnlyList<string> nodes;
    private readonly Dictionary<string, int> indexOf;
    private readonly RelayStreamBooks[] books;
    private readonly long[] spoolDropped;
    private readonly SpanSpool spool;
    private readonly SpoolCursor cursor;
    private readonly object gate = new();
    private readonly TaskCompletionSource final = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private IReadOnlyList<TraceNodeStats>? stats;
    private bool stopped;

    internal RelayedTraceRecorder(RelayClient client, string topology, IReadOnlyList<string> nodes, string spansFile)
    {
        this.client = client;
        Topology = topology;
        this.nodes = nodes;
        SpansFile = spansFile;
        indexOf = nodes.Select((n, i) => (n, i)).ToDictionary(p => p.n, p => p.i);
        books = nodes.Select(n => new RelayStreamBooks(n)).ToArray();
        spoolDropped = new long[nodes.Count];
        spool = new SpanSpool(Path.ChangeExtension(spansFile, ".spool"), TraceRecorder.SpoolMemoryBytes);
        cursor = new SpoolCursor(spool);
    }

    public string Topology { get; }

    public string SpansFile { get; }

    /// <summary>What the agent reported when it bound the sockets (a problem per node, if any).</summary>
    public BoundMessage? Bound { get; internal set; }

    internal bool Stopping { get; private set; }

    public long Arrived
    {
        get
        {
            lock (gate)
            {
                return books.Sum(b => b.Arrived);
            }
        }
    }

    public IReadOnlyList<RelayNodeStats> Relay
    {
        get
        {
            lock (gate)
            {
                return books.Select(b => b.Stats()).ToList();
            }
        }
    }

    internal void OnSpan(long session, SpanMessage span)
    {
        lock (gate)
        {
            if (
                stopped
                || !indexOf.TryGetValue(span.Node, out var index)
                || !books[index].Accept(session, span.Sequence)
            )
            {
                return;
            }
            if (!cursor.Append(span.Payload, span.ReceivedUnixMicros, index))
            {
                spoolDropped[index]++;
            }
        }
    }

    internal void OnCounters(long session, RelayStreamCounters counters, bool isFinal)
    {
        lock (gate)
        {
            if (indexOf.TryGetValue(counters.Node, out var index))
            {
                books[index].Count(session, counters, isFinal);
            }
        }
    }

    internal void OnFinal(long session)
    {
        lock (gate)
        {
            // Streams the agent no longer knew (it restarted after the bind): nothing more will come in this session.
            foreach (var book in books)
            {
                if (!book.Final)
                {
                    book.Count(session, new RelayStreamCounters(Topology, book.Node, 0, 0, 0, 0, 0), true);
                }
            }
        }
        final.TrySetResult();
    }

    /// <summary>
    /// Asks the agent to drain and close the sockets, waits for its final counts (up to <paramref name="timeout"/>,
    /// across reconnections), and writes spans.jsonl.
    /// </summary>
    public async Task<IReadOnlyList<TraceNodeStats>> StopAsync(
        TimeSpan timeout,
        bool writeJsonLines = true,
        CancellationToken ct = default
    )
    {
        if (stats is not null)
        {
            return stats;
        }
        Stopping = true;
        await client.SendUnbindAsync(Topology, ct);
        await final.Task.WaitAsync(timeout, ct).ContinueWith(_ => { }, TaskScheduler.Default);
        client.Forget(this);
        lock (gate)
        {
            stopped = true;
            cursor.Flush();
        }
        await spool.DisposeAsync();
        var relay = Relay;
        stats = relay
            .Select(
                (r, i) =>
                    new TraceNodeStats(
                        r.Node,
                        r.AgentReceived,
                        r.AgentDropped + r.LostInRelay + spoolDropped[i],
                        0,
                        0,
                        Bound?.Sockets.FirstOrDefault(s => s.Node == r.Node)?.KernelBufferBytes ?? 0
                    )
            )
            .ToList();
        if (writeJsonLines)
        {
            SpanJsonLines.Convert(spool.Path, nodes, SpansFile);
        }
        File.Delete(spool.Path);
        return stats;
    }

    /// <summary>When the agent was asked to close the sockets (µs since the epoch).</summary>
    public long? StoppedUnixMicros { get; private set; }

    /// <summary>
    /// Waits until nothing more arrives for 300 ms (up to 10 s: the last payments' late spans, as on one host), then
    /// asks the agent to close the sockets and waits up to 10 s for its final counts.
    /// </summary>
    public async Task<IReadOnlyList<TraceNodeStats>> FinishAsync(CancellationToken ct = default)
    {
        await ISpanCollection.UntilQuietAsync(() => Arrived, TimeSpan.FromMilliseconds(300), ct);
        StoppedUnixMicros = SpanCollector.UnixMicrosNow();
        return await StopAsync(TimeSpan.FromSeconds(10), ct: ct);
    }

    public async ValueTask DisposeAsync()
    {
        if (stats is null)
        {
            client.Forget(this);
            lock (gate)
            {
                stopped = true;
            }
            await spool.DisposeAsync();
            File.Delete(spool.Path);
        }
    }
}
