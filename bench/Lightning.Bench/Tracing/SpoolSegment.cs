using System.Buffers.Binary;

namespace Lightning.Bench.Tracing;

/// <summary>
/// A block of received datagrams, written by one receive thread and then as a whole to the spool file. Each record:
/// payload length (int32), receive time in µs (int64), node index (int32), payload. Datagrams are received straight
/// into the block: no copy, no allocation per span. A record with node index -1 is padding (see <see cref="PadTo"/>).
/// </summary>
internal sealed class SpoolSegment
{
    public const int HeaderBytes = 16;
    public const int Alignment = 4096;
    private const int PaddingNode = -1;

    private readonly byte[] memory;
    private readonly int offset;

    /// <summary>A pinned block whose start is aligned to <see cref="Alignment"/>, as O_DIRECT writes require.</summary>
    public SpoolSegment(int size)
    {
        memory = GC.AllocateArray<byte>(size + Alignment, pinned: true);
        unsafe
        {
            fixed (byte* start = memory)
            {
                offset = (int)((Alignment - ((nint)start % Alignment)) % Alignment);
            }
        }
        Capacity = size;
    }

    public int Capacity { get; }

    public Span<byte> Buffer => memory.AsSpan(offset, Capacity);

    public int Length { get; private set; }

    public int Records { get; private set; }

    public int Free => Capacity - Length - Alignment;

    /// <summary>Where the next payload goes: receive into this span, then call <see cref="Commit"/>.</summary>
    public Span<byte> NextPayload => Buffer[(Length + HeaderBytes)..];

    /// <summary>Ends the segment with a padding record so its length is a multiple of <paramref name="alignment"/>.</summary>
    public void PadTo(int alignment)
    {
        var padded = (Length + HeaderBytes + alignment - 1) / alignment * alignment;
        var header = Buffer.Slice(Length, HeaderBytes);
        BinaryPrimitives.WriteInt32LittleEndian(header, padded - Length - HeaderBytes);
        BinaryPrimitives.WriteInt64LittleEndian(header[4..], 0);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], PaddingNode);
        Length = padded;
    }

    public void Commit(int payloadLength, long receivedUnixMicros, int nodeIndex)
    {
        var header = Buffer.Slice(Length, HeaderBytes);
        BinaryPrimitives.WriteInt32LittleEndian(header, payloadLength);
        BinaryPrimitives.WriteInt64LittleEndian(header[4..], receivedUnixMicros);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], nodeIndex);
        Length += HeaderBytes + payloadLength;
        Records++;
    }

    public void Reset()
    {
        Length = 0;
        Records = 0;
    }

    /// <summary>Reads the records of a spool file back, in the order they were written.</summary>
    public static IEnumerable<(int NodeIndex, long ReceivedUnixMicros, byte[] Payload)> Read(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 20);
        var header = new byte[HeaderBytes];
        while (file.Read(header) == HeaderBytes)
        {
            var length = BinaryPrimitives.ReadInt32LittleEndian(header);
            var node = BinaryPrimitives.ReadInt32LittleEndian(header.AsSpan(12));
            if (node == PaddingNode)
            {
                file.Seek(length, SeekOrigin.Current);
                continue;
            }
            var payload = new byte[length];
            file.ReadExactly(payload);
            yield return (node, BinaryPrimitives.ReadInt64LittleEndian(header.AsSpan(4)), payload);
        }
    }
}
