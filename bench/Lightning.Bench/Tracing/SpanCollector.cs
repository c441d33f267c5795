using System.Diagnostics;
using System.Net.Sockets;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Binds one node's SOCK_DGRAM trace socket and drains it on a dedicated thread into a bounded channel, so a slow
/// disk never makes the kernel queue overflow (Core Lightning drops spans silently when it is full).
/// </summary>
public sealed class SpanCollector : IDisposable
{
    /// <summary>Core Lightning cuts payloads at 2048 bytes; a bigger buffer also catches anything else sent.</summary>
    public const int ReceiveBufferBytes = 64 * 1024;

    /// <summary>Kernel receive buffer asked for; the kernel may cap it at net.core.rmem_max.</summary>
    public const int SocketBufferBytes = 8 * 1024 * 1024;

    private readonly Socket socket;
    private readonly DatagramQueue output;
    private readonly Thread thread;
    private long received;
    private long dropped;
    private long bytes;
    private volatile bool stopping;

    public SpanCollector(string node, string socketPath, DatagramQueue output)
    {
        Node = node;
        SocketPath = socketPath;
        this.output = output;
        if (File.Exists(socketPath))
        {
            File.Delete(socketPath);
        }
        socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(socketPath));
        socket.ReceiveBufferSize = SocketBufferBytes;
        KernelBufferBytes = socket.ReceiveBufferSize;
        thread = new Thread(ReceiveLoop) { IsBackground = true, Name = $"spans:{node}", Priority = ThreadPriority.AboveNormal };
    }

    public string Node { get; }

    public string SocketPath { get; }

    /// <summary>What the kernel granted for SO_RCVBUF.</summary>
    public int KernelBufferBytes { get; }

    public long Received => Interlocked.Read(ref received);

    /// <summary>Datagrams the harness itself dropped because its queue was full (the writer fell behind).</summary>
    public long Dropped => Interlocked.Read(ref dropped);

    public long Bytes => Interlocked.Read(ref bytes);

    public void Start() => thread.Start();

    public void Dispose()
    {
        stopping = true;
        socket.Dispose();
        if (thread.IsAlive)
        {
            thread.Join(TimeSpan.FromSeconds(5));
        }
        try
        {
            File.Delete(SocketPath);
        }
        catch (IOException)
        {
        }
    }

    private void ReceiveLoop()
    {
        var buffer = new byte[ReceiveBufferBytes];
        while (!stopping)
        {
            int length;
            try
            {
                length = socket.Receive(buffer);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return;
            }
            var now = UnixMicrosNow();
            Interlocked.Increment(ref received);
            Interlocked.Add(ref bytes, length);
            if (!output.TryWrite(new ReceivedDatagram(Node, now, buffer.AsSpan(0, length).ToArray())))
            {
                Interlocked.Increment(ref dropped);
            }
        }
    }

    private static readonly long StartTicks = Stopwatch.GetTimestamp();
    private static readonly long StartUnixMicros = (DateTimeOffset.UtcNow - DateTimeOffset.UnixEpoch).Ticks / 10;

    /// <summary>Wall clock in µs from one reading plus the monotonic clock: cheap and never goes backwards.</summary>
    public static long UnixMicrosNow() =>
        StartUnixMicros + (long)((Stopwatch.GetTimestamp() - StartTicks) * (1_000_000.0 / Stopwatch.Frequency));
}
