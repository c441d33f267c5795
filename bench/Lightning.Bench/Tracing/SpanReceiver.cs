using System.Diagnostics;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Drains a case's trace sockets into the spool. With a deep kernel queue (Linux, net.unix.max_dgram_qlen at least
/// <see cref="PollingQueueLength"/>) one thread polls every socket without ever blocking on one, and sleeps
/// <see cref="PollInterval"/> between rounds: a node's sendto then never has a sleeping receiver to wake.
/// On a small machine (a virtual one especially) those wake-ups were most of what tracing cost the nodes.
/// At stress rates (far above payments') it waits in poll(2) instead. With the default queue of 10 a sleep would let
/// bursts overflow, so each socket gets a thread blocked in recvmmsg.
/// </summary>
internal sealed class SpanReceiver : IDisposable
{
    /// <summary>The kernel queue a socket needs before it may be left alone for a poll interval.</summary>
    public const int PollingQueueLength = 256;

    /// <summary>How long the polling thread sleeps after a quiet round: ~7 spans per node arrive per ms at 80 payments/s.</summary>
    public static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// Above this rate (datagrams per millisecond, all sockets, over <see cref="RateWindow"/>) a sleep could let a
    /// kernel queue fill, so the thread waits in poll(2) instead, like a plain receive loop: stress tests, not payments.
    /// </summary>
    public const int BusyDatagramsPerMs = 64;

    /// <summary>A round that found this many datagrams switches to waiting in poll(2) at once: the queues were filling.</summary>
    public const int BusyRound = 256;

    /// <summary>How often the polling thread decides between sleeping and waiting in poll(2).</summary>
    public static readonly TimeSpan RateWindow = TimeSpan.FromMilliseconds(10);

    /// <summary>How long the rate must stay low before a busy thread sleeps between rounds again.</summary>
    public static readonly TimeSpan BusyWindow = TimeSpan.FromMilliseconds(200);

    private readonly IReadOnlyList<SpanCollector> collectors;
    private readonly SpanSpool spool;
    private readonly List<Thread> threads = new();
    private volatile bool stopping;

    public SpanReceiver(IReadOnlyList<SpanCollector> collectors, SpanSpool spool, int queueLength)
    {
        this.collectors = collectors;
        this.spool = spool;
        Polling = RecvMmsg.Available && queueLength >= PollingQueueLength;
        if (Polling)
        {
            threads.Add(new Thread(Poll) { IsBackground = true, Name = "spans:poll" });
        }
        else
        {
            foreach (var collector in collectors)
            {
                threads.Add(
                    new Thread(() => Block(collector)) { IsBackground = true, Name = $"spans:{collector.Node}" }
                );
            }
        }
    }

    /// <summary>Whether one thread polls all sockets (else a thread blocks on each).</summary>
    public bool Polling { get; }

    public void Start() => threads.ForEach(t => t.Start());

    /// <summary>Stops receiving after a last drain; the sockets stay open (their owner closes them).</summary>
    public void Dispose()
    {
        stopping = true;
        if (!RecvMmsg.Available)
        {
            // Blocking receives on other systems end only when the socket closes.
            foreach (var collector in collectors)
            {
                collector.Dispose();
            }
        }
        threads.ForEach(t => t.Join(TimeSpan.FromSeconds(5)));
    }

    /// <remarks>Compiled optimised at once: the loop runs for the whole case, and tier-0 code loses spans while it warms up.</remarks>
    [System.Runtime.CompilerServices.MethodImpl(
        System.Runtime.CompilerServices.MethodImplOptions.AggressiveOptimization
    )]
    private unsafe void Poll()
    {
        using var batch = new RecvBatch();
        var cursor = new SpoolCursor(spool);
        var open = collectors.ToArray();
        var descriptors = open.Select(c => new RecvMmsg.PollFd { Descriptor = c.Descriptor, Events = RecvMmsg.PollIn })
            .ToArray();
        var busy = false;
        var windowStart = Stopwatch.GetTimestamp();
        long windowCount = 0;
        // Blocking receives (busy, one socket) wait at most 100 ms, so the loop sees a stop; MSG_DONTWAIT ones never wait.
        var canBlock = open.Length == 1 && RecvMmsg.MakeBlockingWithTimeout(open[0].Descriptor, 100);
        fixed (RecvMmsg.PollFd* pollFds = descriptors)
        {
            while (true)
            {
                var round = 0;
                if (busy && canBlock)
                {
                    // One socket: a single recvmmsg waits for a datagram and takes what else is queued, as a plain loop would.
                    round += Math.Max(open[0].ReceiveBatch(batch, RecvMmsg.MsgWaitForOne, cursor), 0);
                }
                else if (busy)
                {
                    RecvMmsg.Poll(pollFds, (nuint)descriptors.Length, 100);
                }
                var last = stopping;
                foreach (var collector in open)
                {
                    int count;
                    do
                    {
                        count = collector.ReceiveBatch(batch, RecvMmsg.MsgDontWait, cursor);
                        round += Math.Max(count, 0);
                    } while (count == RecvBatch.Size);
                }
                if (last)
                {
                    break;
                }
                windowCount += round;
                var elapsed = Stopwatch.GetElapsedTime(windowStart);
                if (round >= BusyRound)
                {
                    busy = true;
                    windowStart = Stopwatch.GetTimestamp();
                    windowCount = 0;
                }
                else if (elapsed >= (busy ? BusyWindow : RateWindow))
                {
                    busy = windowCount > BusyDatagramsPerMs * elapsed.TotalMilliseconds;
                    windowStart = Stopwatch.GetTimestamp();
                    windowCount = 0;
                }
                if (!busy)
                {
                    Thread.Sleep(PollInterval);
                }
            }
        }
        cursor.Flush();
    }

    [System.Runtime.CompilerServices.MethodImpl(
        System.Runtime.CompilerServices.MethodImplOptions.AggressiveOptimization
    )]
    private void Block(SpanCollector collector)
    {
        var cursor = new SpoolCursor(spool);
        if (RecvMmsg.Available)
        {
            using var batch = new RecvBatch();
            // Each receive waits at most 100 ms, so the loop sees a stop; MSG_WAITFORONE waits for one and takes the rest.
            var flags = RecvMmsg.MakeBlockingWithTimeout(collector.Descriptor, 100)
                ? RecvMmsg.MsgWaitForOne
                : RecvMmsg.MsgDontWait;
            while (!stopping)
            {
                var count = collector.ReceiveBatch(batch, flags, cursor);
                if (count < 0)
                {
                    break;
                }
                if (count == 0 && flags == RecvMmsg.MsgDontWait)
                {
                    Thread.Sleep(1);
                }
            }
            // What arrived since the last receive.
            while (collector.ReceiveBatch(batch, RecvMmsg.MsgDontWait, cursor) > 0) { }
        }
        else
        {
            collector.ReceiveOneByOne(cursor);
        }
        cursor.Flush();
    }
}
