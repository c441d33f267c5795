using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Lightning.Bench.Tracing;

/// <summary>
/// One node's SOCK_DGRAM trace socket, bound before the node starts, and what was received on it. The receiving is
/// done by a <see cref="SpanReceiver"/>: on Linux one polling thread for all of a case's sockets, elsewhere a thread
/// per socket.
/// </summary>
internal sealed unsafe class SpanCollector : IDisposable
{
    /// <summary>Core Lightning cuts payloads at 2048 bytes; room for 64 KiB also catches anything else sent whole.</summary>
    public const int MaxDatagramBytes = 64 * 1024;

    /// <summary>Kernel receive buffer asked for; the kernel caps it at net.core.rmem_max.</summary>
    public const int SocketBufferBytes = 8 * 1024 * 1024;

    private static readonly long StartTicks = Stopwatch.GetTimestamp();
    private static readonly long StartUnixMicros = (DateTimeOffset.UtcNow - DateTimeOffset.UnixEpoch).Ticks / 10;

    private readonly Socket socket;
    private readonly int nodeIndex;
    private long received;
    private long dropped;
    private long bytes;
    private long truncated;

    /// <summary>
    /// A node's trace socket, bound at <paramref name="socketPath"/> (a file left there by a collector that died is
    /// replaced: the node sends to the path) with the largest receive buffer the kernel allows.
    /// </summary>
    public static Socket BindDatagramSocket(string socketPath)
    {
        if (File.Exists(socketPath))
        {
            File.Delete(socketPath);
        }
        var socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(socketPath));
        socket.ReceiveBufferSize = SocketBufferBytes;
        return socket;
    }

    public SpanCollector(string node, int nodeIndex, string socketPath)
    {
        Node = node;
        SocketPath = socketPath;
        this.nodeIndex = nodeIndex;
        socket = BindDatagramSocket(socketPath);
        KernelBufferBytes = socket.ReceiveBufferSize;
    }

    public string Node { get; }

    public string SocketPath { get; }

    /// <summary>What the kernel granted for SO_RCVBUF (Linux reports twice the value it was given).</summary>
    public int KernelBufferBytes { get; }

    public long Received => Interlocked.Read(ref received);

    /// <summary>Datagrams the harness received but could not keep: every spool segment was waiting for the disk.</summary>
    public long Dropped => Interlocked.Read(ref dropped);

    public long Bytes => Interlocked.Read(ref bytes);

    /// <summary>Datagrams longer than a receive slot, kept cut (Linux batch path only).</summary>
    public long Truncated => Interlocked.Read(ref truncated);

    internal int Descriptor => (int)socket.SafeHandle.DangerousGetHandle();

    /// <summary>Closes the socket (after its receiver has stopped) and removes its file.</summary>
    public void Dispose()
    {
        socket.Dispose();
        try
        {
            File.Delete(SocketPath);
        }
        catch (IOException) { }
    }

    /// <summary>Wall clock in µs from one reading plus the monotonic clock: cheap and never goes backwards.</summary>
    public static long UnixMicrosNow() =>
        StartUnixMicros + (long)((Stopwatch.GetTimestamp() - StartTicks) * (1_000_000.0 / Stopwatch.Frequency));

    /// <summary>
    /// Linux: one recvmmsg into <paramref name="batch"/>, then the datagrams are copied into the spool segment.
    /// Returns how many arrived, 0 when none was waiting, or -1 when the socket is gone.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(
        System.Runtime.CompilerServices.MethodImplOptions.AggressiveOptimization
    )]
    internal int ReceiveBatch(RecvBatch batch, int flags, SpoolCursor cursor)
    {
        var count = RecvMmsg.Receive(Descriptor, batch.Messages, RecvBatch.Size, flags, null);
        if (count <= 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            return count < 0 && errno != RecvMmsg.EAgain && errno != RecvMmsg.EIntr ? -1 : 0;
        }
        var now = UnixMicrosNow();
        long batchBytes = 0;
        for (var i = 0; i < count; i++)
        {
            var length = (int)Math.Min(batch.Messages[i].Length, RecvBatch.SlotBytes);
            batchBytes += length;
            if ((batch.Messages[i].Header.Flags & RecvMmsg.MsgTrunc) != 0)
            {
                Interlocked.Increment(ref truncated);
            }
            if (!cursor.Append(batch.Slot(i, length), now, nodeIndex))
            {
                Interlocked.Increment(ref dropped);
            }
        }
        Interlocked.Add(ref received, count);
        Interlocked.Add(ref bytes, batchBytes);
        return count;
    }

    /// <summary>Other systems: one blocking receive per datagram until the socket is closed.</summary>
    internal void ReceiveOneByOne(SpoolCursor cursor)
    {
        var buffer = new byte[MaxDatagramBytes];
        try
        {
            while (true)
            {
                var length = socket.Receive(buffer);
                Interlocked.Increment(ref received);
                Interlocked.Add(ref bytes, length);
                if (!cursor.Append(buffer.AsSpan(0, length), UnixMicrosNow(), nodeIndex))
                {
                    Interlocked.Increment(ref dropped);
                }
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The socket was closed: the recorder is stopping.
        }
    }
}
