using System.Threading.Channels;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Receive threads → writer, bounded by queued payload bytes rather than by count, so bursts of small spans are
/// absorbed while memory stays bounded. When it is full the receiver drops and counts, and never blocks.
/// </summary>
public sealed class DatagramQueue(long maxBytes)
{
    private readonly Channel<ReceivedDatagram> channel = Channel.CreateUnbounded<ReceivedDatagram>(
        new UnboundedChannelOptions { SingleReader = true, SingleWriter = false, AllowSynchronousContinuations = false });
    private long queuedBytes;

    public bool TryWrite(ReceivedDatagram datagram)
    {
        if (Interlocked.Add(ref queuedBytes, datagram.Payload.Length) > maxBytes)
        {
            Interlocked.Add(ref queuedBytes, -datagram.Payload.Length);
            return false;
        }
        return channel.Writer.TryWrite(datagram);
    }

    public ValueTask<bool> WaitToReadAsync(CancellationToken ct = default) => channel.Reader.WaitToReadAsync(ct);

    public bool TryRead(out ReceivedDatagram datagram)
    {
        if (!channel.Reader.TryRead(out datagram))
        {
            return false;
        }
        Interlocked.Add(ref queuedBytes, -datagram.Payload.Length);
        return true;
    }

    public void Complete() => channel.Writer.TryComplete();
}
