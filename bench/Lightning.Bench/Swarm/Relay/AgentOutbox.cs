using System.Net.Sockets;
using System.Threading.Channels;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// What an agent sends the harness, in order: spans (bounded: beyond the most, the caller counts the drop) and answers
/// (never dropped), written in batches on whichever connection is live; a batch whose write failed goes first on the
/// next connection.
/// </summary>
internal sealed class AgentOutbox(int maxQueuedSpans)
{
    /// <summary>How long the writer waits for the harness to be back before it looks again.</summary>
    private static readonly TimeSpan WaitForHarness = TimeSpan.FromMilliseconds(20);

    private readonly Channel<byte[]> outbox = Channel.CreateUnbounded<byte[]>(
        new UnboundedChannelOptions { SingleReader = true }
    );
    private long queuedSpans;
    private long framesWritten;

    /// <summary>Span frames written to the harness so far.</summary>
    public long FramesWritten => Interlocked.Read(ref framesWritten);

    /// <summary>No more frames: the writer ends once the queue is empty or the agent stops.</summary>
    public void Complete() => outbox.Writer.TryComplete();

    /// <summary>Queues a span unless the queue holds its most (the drop is the caller's to count).</summary>
    public bool TryQueueSpan(SpanMessage span)
    {
        if (Interlocked.Increment(ref queuedSpans) > maxQueuedSpans)
        {
            Interlocked.Decrement(ref queuedSpans);
            return false;
        }
        if (!outbox.Writer.TryWrite(span.Encode()))
        {
            Interlocked.Decrement(ref queuedSpans);
            return false;
        }
        return true;
    }

    /// <summary>Queues an answer to the harness (never dropped).</summary>
    public void Enqueue(byte[] frame)
    {
        Interlocked.Increment(ref answersWaiting);
        outbox.Writer.TryWrite(frame);
        // An answer cuts short the wait of spans queued before it: the harness may be waiting on it between payments
        // (a profile switched on is acknowledged before the invocation starts, so a late answer would widen the sampled window).
        answerQueued.Release();
    }

    /// <summary>Released when an answer (not a span) is queued: ends the writer's wait for more spans at once.</summary>
    private readonly SemaphoreSlim answerQueued = new(0);

    /// <summary>Answers in the queue, not yet taken by the writer.</summary>
    private int answersWaiting;

    private static bool IsSpan(byte[] frame) => frame[RelayWire.HeaderBytes] == (byte)RelayFrameType.Span;

    /// <summary>Frames written to the connection at once, at most: a burst of spans goes in one send, not one each.</summary>
    private const int WriteBatchBytes = 64 * 1024;

    /// <summary>
    /// How long a span frame waits for others to go with it (20 ms: tracing then cost the nodes about what it costs on one
    /// host, +4 % at Concurrency=1 and +6 % at 10; 5 ms left +10–16 %). Each send wakes the harness's reader (and the run's gate
    /// between them); on 2 cores a send per span cost the nodes' payments a fifth of their time at Concurrency=1.
    /// Answers (costs, quiet, bound, profile switches) go at once, and take the spans queued before them along.
    /// </summary>
    public static readonly TimeSpan SpanCoalescing = TimeSpan.FromMilliseconds(20);

    /// <summary>
    /// The one writer: the queue, in order, to the active connection, the frames waiting taken together (up to
    /// <see cref="WriteBatchBytes"/>) into one write; a batch whose write failed goes first on the next connection
    /// (what of it had arrived is a repeat there, which the harness keeps once by sequence number).
    /// </summary>
    public async Task WriteAsync(Func<AgentConnection?> active, CancellationToken ct)
    {
        var batch = new List<byte[]>();
        var buffer = new MemoryStream(WriteBatchBytes + RelayWire.MaxFrameBytes);
        try
        {
            while (true)
            {
                if (batch.Count == 0)
                {
                    if (!await outbox.Reader.WaitToReadAsync(ct) || !outbox.Reader.TryRead(out var first))
                    {
                        continue;
                    }
                    if (IsSpan(first))
                    {
                        // No wait when an answer is in the queue behind this span; one queued during the wait ends it.
                        while (answerQueued.Wait(0)) { }
                        if (Volatile.Read(ref answersWaiting) == 0)
                        {
                            await answerQueued.WaitAsync(SpanCoalescing, ct);
                        }
                    }
                    else
                    {
                        Interlocked.Decrement(ref answersWaiting);
                    }
                    batch.Add(first);
                    var bytes = first.Length;
                    while (bytes < WriteBatchBytes && outbox.Reader.TryRead(out var next))
                    {
                        if (!IsSpan(next))
                        {
                            Interlocked.Decrement(ref answersWaiting);
                        }
                        batch.Add(next);
                        bytes += next.Length;
                    }
                }
                var connection = active();
                if (connection is null || connection.Closed)
                {
                    // Nobody to write to: the queue keeps what arrives until the harness is back (or fills, and drops count).
                    await Task.Delay(WaitForHarness, ct);
                    continue;
                }
                buffer.SetLength(0);
                foreach (var frame in batch)
                {
                    buffer.Write(frame);
                }
                try
                {
                    await connection.Stream.WriteAsync(buffer.GetBuffer().AsMemory(0, (int)buffer.Length), ct);
                }
                catch (Exception e) when (e is IOException or SocketException or ObjectDisposedException)
                {
                    connection.Close();
                    continue;
                }
                var spans = batch.Count(IsSpan);
                Interlocked.Add(ref queuedSpans, -spans);
                Interlocked.Add(ref framesWritten, spans);
                batch.Clear();
            }
        }
        catch (OperationCanceledException) { }
    }
}
