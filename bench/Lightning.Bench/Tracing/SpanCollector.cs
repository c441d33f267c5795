using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Binds one node's SOCK_DGRAM trace socket and drains it on a dedicated thread straight into spool segments, so the
/// kernel queue (Core Lightning drops spans silently when it is full) is emptied as fast as the socket allows.
/// </summary>
public sealed unsafe class SpanCollector : IDisposable
{
    /// <summary>Core Lightning cuts payloads at 2048 bytes; room for 64 KiB also catches anything else sent whole.</summary>
    public const int MaxDatagramBytes = 64 * 1024;

    /// <summary>Datagrams fetched per recvmmsg call, each into a slot of <see cref="SlotBytes"/>.</summary>
    public const int Batch = 64;

    /// <summary>Core Lightning's payloads are at most 2048 bytes; a longer one is cut to this (and flagged truncated).</summary>
    public const int SlotBytes = 8 * 1024;

    /// <summary>
    /// With a deep kernel queue (net.unix.max_dgram_qlen at least this), a thread that found few datagrams sleeps a
    /// millisecond before asking again, so spans arrive in batches: at benchmark rates this cuts the receive thread's
    /// CPU (taken from the nodes on a small machine) several times. With the default queue of 10 it never sleeps.
    /// </summary>
    public const int CoalescingQueueLength = 256;

    /// <summary>Kernel receive buffer asked for; the kernel caps it at net.core.rmem_max.</summary>
    public const int SocketBufferBytes = 8 * 1024 * 1024;

    private static readonly long StartTicks = Stopwatch.GetTimestamp();
    private static readonly long StartUnixMicros = (DateTimeOffset.UtcNow - DateTimeOffset.UnixEpoch).Ticks / 10;

    private readonly Socket socket;
    private readonly SpanSpool spool;
    private readonly int nodeIndex;
    private readonly Thread thread;
    private readonly byte[] overflow = new byte[MaxDatagramBytes];
    private long received;
    private long dropped;
    private long bytes;
    private long truncated;
    private volatile bool stopping;

    public SpanCollector(string node, int nodeIndex, string socketPath, SpanSpool spool)
    {
        Node = node;
        SocketPath = socketPath;
        this.nodeIndex = nodeIndex;
        this.spool = spool;
        if (File.Exists(socketPath))
        {
            File.Delete(socketPath);
        }
        socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        socket.Bind(new UnixDomainSocketEndPoint(socketPath));
        socket.ReceiveBufferSize = SocketBufferBytes;
        KernelBufferBytes = socket.ReceiveBufferSize;
        thread = new Thread(ReceiveLoop) { IsBackground = true, Name = $"spans:{node}" };
    }

    public string Node { get; }

    public string SocketPath { get; }

    /// <summary>What the kernel granted for SO_RCVBUF (Linux reports twice the value it was given).</summary>
    public int KernelBufferBytes { get; }

    public long Received => Interlocked.Read(ref received);

    /// <summary>Datagrams the harness received but could not keep: every spool segment was waiting for the disk.</summary>
    public long Dropped => Interlocked.Read(ref dropped);

    public long Bytes => Interlocked.Read(ref bytes);

    public void Start() => thread.Start();

    /// <summary>Datagrams longer than a receive slot, kept cut (Linux batch path only).</summary>
    public long Truncated => Interlocked.Read(ref truncated);

    public void Dispose()
    {
        stopping = true;
        if (thread.IsAlive && RecvMmsg.Available)
        {
            // The batch loop's receive times out every 100 ms and sees the flag; the socket closes after it has left.
            thread.Join(TimeSpan.FromSeconds(5));
        }
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

    /// <summary>Wall clock in µs from one reading plus the monotonic clock: cheap and never goes backwards.</summary>
    public static long UnixMicrosNow() =>
        StartUnixMicros + (long)((Stopwatch.GetTimestamp() - StartTicks) * (1_000_000.0 / Stopwatch.Frequency));

    private void ReceiveLoop()
    {
        if (RecvMmsg.Available)
        {
            ReceiveBatches();
        }
        else
        {
            ReceiveOneByOne();
        }
    }

    /// <summary>Linux: up to <see cref="Batch"/> datagrams per recvmmsg into fixed slots, then copied into the spool segment.</summary>
    /// <remarks>Compiled optimised at once: the loop runs for the whole case, and tier-0 code loses spans while it warms up.</remarks>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveOptimization)]
    private void ReceiveBatches()
    {
        var fd = (int)socket.SafeHandle.DangerousGetHandle();
        var slots = GC.AllocateArray<byte>(Batch * SlotBytes, pinned: true);
        var iovecs = new RecvMmsg.IoVec[Batch];
        var messages = new RecvMmsg.MMsgHdr[Batch];
        var segment = spool.Rent();
        fixed (byte* slotBase = slots)
        fixed (RecvMmsg.IoVec* iov = iovecs)
        fixed (RecvMmsg.MMsgHdr* msgs = messages)
        {
            for (var i = 0; i < Batch; i++)
            {
                iov[i].Base = slotBase + (i * SlotBytes);
                iov[i].Length = SlotBytes;
                msgs[i].Header.Iov = iov + i;
                msgs[i].Header.IovLength = 1;
            }
            var blocking = RecvMmsg.MakeBlockingWithTimeout(fd, 100);
            var coalesce = DatagramQueueLimit.Current >= CoalescingQueueLength;
            while (!stopping)
            {
                var count = RecvMmsg.Receive(fd, msgs, Batch, blocking ? RecvMmsg.MsgWaitForOne : RecvMmsg.MsgDontWait, null);
                if (count <= 0)
                {
                    var errno = Marshal.GetLastPInvokeError();
                    if (count < 0 && errno != RecvMmsg.EAgain && errno != RecvMmsg.EIntr)
                    {
                        break;
                    }
                    if (!blocking)
                    {
                        Thread.Sleep(1);
                    }
                    continue;
                }
                var now = UnixMicrosNow();
                long batchBytes = 0;
                for (var i = 0; i < count; i++)
                {
                    var length = (int)Math.Min(msgs[i].Length, SlotBytes);
                    batchBytes += length;
                    if ((msgs[i].Header.Flags & RecvMmsg.MsgTrunc) != 0)
                    {
                        Interlocked.Increment(ref truncated);
                    }
                    if (segment is null || segment.Free < SpoolSegment.HeaderBytes + length)
                    {
                        if (segment is not null)
                        {
                            spool.Submit(segment);
                        }
                        segment = spool.Rent();
                        if (segment is null)
                        {
                            Interlocked.Increment(ref dropped);
                            continue;
                        }
                    }
                    new ReadOnlySpan<byte>(slotBase + (i * SlotBytes), length).CopyTo(segment.NextPayload);
                    segment.Commit(length, now, nodeIndex);
                }
                Interlocked.Add(ref received, count);
                Interlocked.Add(ref bytes, batchBytes);
                if (coalesce && count < Batch / 4)
                {
                    Thread.Sleep(1);
                }
            }
        }
        if (segment is not null)
        {
            spool.Submit(segment);
        }
    }

    private void ReceiveOneByOne()
    {
        var segment = spool.Rent();
        try
        {
            while (!stopping)
            {
                if (segment is null || segment.Free < SpoolSegment.HeaderBytes + MaxDatagramBytes)
                {
                    if (segment is not null)
                    {
                        spool.Submit(segment);
                    }
                    segment = spool.Rent();
                }
                // With no segment free the datagram is still taken off the kernel queue, then counted as dropped.
                Span<byte> target = segment is null ? overflow : segment.NextPayload[..MaxDatagramBytes];
                var length = socket.Receive(target);
                Interlocked.Increment(ref received);
                Interlocked.Add(ref bytes, length);
                if (segment is null)
                {
                    Interlocked.Increment(ref dropped);
                    continue;
                }
                segment.Commit(length, UnixMicrosNow(), nodeIndex);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The socket was closed: the recorder is stopping.
        }
        finally
        {
            if (segment is not null)
            {
                spool.Submit(segment);
            }
        }
    }
}
