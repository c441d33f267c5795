using System.Runtime.InteropServices;

namespace Lightning.Bench.Tracing;

/// <summary>Native memory for one recvmmsg call: <see cref="Size"/> slots of <see cref="SlotBytes"/> and their headers.</summary>
internal sealed unsafe class RecvBatch : IDisposable
{
    /// <summary>Datagrams fetched per recvmmsg call.</summary>
    public const int Size = 64;

    /// <summary>Core Lightning's payloads are at most 2048 bytes; a longer one is cut to this (and flagged truncated).</summary>
    public const int SlotBytes = 8 * 1024;

    private readonly byte* slots;
    private readonly RecvMmsg.IoVec* iovecs;

    public RecvBatch()
    {
        slots = (byte*)NativeMemory.AllocZeroed(Size * SlotBytes);
        iovecs = (RecvMmsg.IoVec*)NativeMemory.AllocZeroed(Size, (nuint)sizeof(RecvMmsg.IoVec));
        Messages = (RecvMmsg.MMsgHdr*)NativeMemory.AllocZeroed(Size, (nuint)sizeof(RecvMmsg.MMsgHdr));
        for (var i = 0; i < Size; i++)
        {
            iovecs[i].Base = slots + (i * SlotBytes);
            iovecs[i].Length = SlotBytes;
            Messages[i].Header.Iov = iovecs + i;
            Messages[i].Header.IovLength = 1;
        }
    }

    public RecvMmsg.MMsgHdr* Messages { get; }

    public ReadOnlySpan<byte> Slot(int index, int length) => new(slots + (index * SlotBytes), length);

    public void Dispose()
    {
        NativeMemory.Free(slots);
        NativeMemory.Free(iovecs);
        NativeMemory.Free(Messages);
    }
}
