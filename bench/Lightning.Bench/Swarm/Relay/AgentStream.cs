using System.Net.Sockets;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// One node's trace socket on the agent's host: the agent's polling thread (<see cref="AgentPoller"/>) drains it and
/// queues each datagram as a span frame with the next sequence number of the node's stream; what the queue cannot take
/// is dropped and counted. No thread blocks on it: a node's sendto never has a sleeping receiver to wake, which on a
/// small machine was most of what relayed tracing cost the nodes (as on one host, see <see cref="SpanReceiver"/>).
/// </summary>
internal sealed class AgentStream : IDisposable
{
    private readonly Socket socket;
    private readonly Func<SpanMessage, bool> enqueue;
    private readonly byte[] buffer = new byte[SpanCollector.MaxDatagramBytes];
    private readonly RecvBatch? batch = RecvMmsg.Available ? new RecvBatch() : null;
    private readonly object gate = new();
    private bool closed;
    private long received;
    private long dropped;
    private long relayed;
    private long bytes;

    public AgentStream(string topology, string node, string socketPath, Func<SpanMessage, bool> enqueue)
    {
        Topology = topology;
        Node = node;
        SocketPath = socketPath;
        this.enqueue = enqueue;
        socket = SpanCollector.BindDatagramSocket(socketPath);
        KernelBufferBytes = socket.ReceiveBufferSize;
    }

    public string Topology { get; }

    public string Node { get; }

    public string SocketPath { get; }

    public int KernelBufferBytes { get; }

    /// <summary>The socket's descriptor, for poll(2).</summary>
    public int Descriptor => (int)socket.Handle;

    public RelayStreamCounters Counters() =>
        new(
            Topology,
            Node,
            Interlocked.Read(ref received),
            Interlocked.Read(ref dropped),
            Interlocked.Read(ref relayed),
            Interlocked.Read(ref bytes),
            KernelBufferBytes
        );

    /// <summary>Takes every datagram waiting (none waits for one), up to 64 a system call on Linux (recvmmsg); returns how many.</summary>
    public int Drain()
    {
        lock (gate)
        {
            if (closed)
            {
                return 0;
            }
            var count = 0;
            try
            {
                if (batch is not null)
                {
                    int got;
                    do
                    {
                        got = ReceiveBatch();
                        count += got;
                    } while (got == RecvBatch.Size);
                }
                else
                {
                    while (socket.Available > 0)
                    {
                        var length = socket.Receive(buffer);
                        count++;
                        Queue(buffer.AsSpan(0, length));
                    }
                }
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                // Closed under it: the stream is ending.
            }
            return count;
        }
    }

    private unsafe int ReceiveBatch()
    {
        var count = RecvMmsg.Receive((int)socket.Handle, batch!.Messages, RecvBatch.Size, RecvMmsg.MsgDontWait, null);
        for (var i = 0; i < count; i++)
        {
            Queue(batch.Slot(i, (int)Math.Min(batch.Messages[i].Length, RecvBatch.SlotBytes)));
        }
        return Math.Max(count, 0);
    }

    private void Queue(ReadOnlySpan<byte> datagram)
    {
        Interlocked.Increment(ref received);
        Interlocked.Add(ref bytes, datagram.Length);
        // The sequence number is given only to a queued frame, so received = relayed + dropped, exactly.
        var sequence = Interlocked.Read(ref relayed) + 1;
        if (enqueue(new SpanMessage(Topology, Node, sequence, SpanCollector.UnixMicrosNow(), datagram.ToArray())))
        {
            Interlocked.Exchange(ref relayed, sequence);
        }
        else
        {
            Interlocked.Increment(ref dropped);
        }
    }

    /// <summary>Stops after a last drain of the socket, closes it and removes its file.</summary>
    public void Dispose()
    {
        Drain();
        lock (gate)
        {
            closed = true;
            socket.Dispose();
            batch?.Dispose();
        }
        try
        {
            File.Delete(SocketPath);
        }
        catch (IOException) { }
    }
}

/// <summary>
/// The agent's one receiving thread: every bound socket drained in turn, then a sleep of
/// <see cref="SpanReceiver.PollInterval"/> when a round found fewer than <see cref="SpanReceiver.BusyRound"/>
/// datagrams (the sockets' queues, raised to 1024 in the agent's container, hold far more than a millisecond of
/// payments' spans). Where the queue is shorter than <see cref="SpanReceiver.PollingQueueLength"/> (an agent run by
/// hand on a host left at 10), a sleep would let bursts overflow: it waits in poll(2) for the next datagram instead.
/// </summary>
internal sealed class AgentPoller : IDisposable
{
    private readonly Thread thread;
    private readonly bool sleeps =
        Tracing.DatagramQueueLimit.Current >= SpanReceiver.PollingQueueLength || !RecvMmsg.Available;
    private volatile AgentStream[] streams = [];
    private volatile bool stopping;

    public AgentPoller()
    {
        thread = new Thread(Run) { IsBackground = true, Name = "agent:spans" };
        thread.Start();
    }

    /// <summary>The streams to drain from now on (a stream taken out is disposed by its owner, which drains it a last time).</summary>
    public void Set(IEnumerable<AgentStream> current) => streams = current.ToArray();

    public void Dispose()
    {
        stopping = true;
        thread.Join(TimeSpan.FromSeconds(5));
    }

    [System.Runtime.CompilerServices.MethodImpl(
        System.Runtime.CompilerServices.MethodImplOptions.AggressiveOptimization
    )]
    private unsafe void Run()
    {
        while (!stopping)
        {
            var current = streams;
            var round = 0;
            foreach (var stream in current)
            {
                round += stream.Drain();
            }
            if (round >= SpanReceiver.BusyRound)
            {
                continue;
            }
            if (sleeps || current.Length == 0)
            {
                Thread.Sleep(SpanReceiver.PollInterval);
                continue;
            }
            var descriptors = current
                .Select(s => new RecvMmsg.PollFd { Descriptor = s.Descriptor, Events = RecvMmsg.PollIn })
                .ToArray();
            fixed (RecvMmsg.PollFd* pollFds = descriptors)
            {
                // At most 100 ms, so a new stream or a stop is seen.
                RecvMmsg.Poll(pollFds, (nuint)descriptors.Length, 100);
            }
        }
    }
}
