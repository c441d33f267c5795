using System.Net.Sockets;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Relay;

/// <summary>
/// One node's trace socket on the agent's host: a thread receives its datagrams and queues each as a span frame with
/// the next sequence number of the node's stream; what the queue cannot take is dropped and counted.
/// </summary>
internal sealed class AgentStream : IDisposable
{
    private readonly Socket socket;
    private readonly Thread thread;
    private readonly Func<SpanMessage, bool> enqueue;
    private volatile bool stopping;
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
        socket.ReceiveTimeout = 100;
        KernelBufferBytes = socket.ReceiveBufferSize;
        thread = new Thread(Receive) { IsBackground = true, Name = $"agent:{node}" };
        thread.Start();
    }

    public string Topology { get; }

    public string Node { get; }

    public string SocketPath { get; }

    public int KernelBufferBytes { get; }

    public RelayStreamCounters Counters() => new(Topology, Node, Interlocked.Read(ref received), Interlocked.Read(ref dropped),
        Interlocked.Read(ref relayed), Interlocked.Read(ref bytes), KernelBufferBytes);

    /// <summary>Stops after a last drain of the socket, closes it and removes its file.</summary>
    public void Dispose()
    {
        stopping = true;
        thread.Join(TimeSpan.FromSeconds(5));
        socket.Dispose();
        try
        {
            File.Delete(SocketPath);
        }
        catch (IOException)
        {
        }
    }

    private void Receive()
    {
        var buffer = new byte[SpanCollector.MaxDatagramBytes];
        while (true)
        {
            int length;
            try
            {
                length = socket.Receive(buffer);
            }
            catch (SocketException e) when (e.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock or SocketError.Interrupted)
            {
                if (stopping)
                {
                    return;
                }
                continue;
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return;
            }
            Interlocked.Increment(ref received);
            Interlocked.Add(ref bytes, length);
            // The sequence number is given only to a queued frame, so received = relayed + dropped, exactly.
            var sequence = Interlocked.Read(ref relayed) + 1;
            if (enqueue(new SpanMessage(Topology, Node, sequence, SpanCollector.UnixMicrosNow(), buffer[..length])))
            {
                Interlocked.Exchange(ref relayed, sequence);
            }
            else
            {
                Interlocked.Increment(ref dropped);
            }
        }
    }
}
