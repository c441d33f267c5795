using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>Writes a frame's body: big-endian integers, strings as a 2-byte length and UTF-8, bytes to the end.</summary>
internal sealed class FrameBodyWriter
{
    private readonly ArrayBufferWriter<byte> buffer = new(256);

    public FrameBodyWriter U8(byte value)
    {
        buffer.GetSpan(1)[0] = value;
        buffer.Advance(1);
        return this;
    }

    public FrameBodyWriter U16(int value)
    {
        BinaryPrimitives.WriteUInt16BigEndian(buffer.GetSpan(2), checked((ushort)value));
        buffer.Advance(2);
        return this;
    }

    public FrameBodyWriter I32(int value)
    {
        BinaryPrimitives.WriteInt32BigEndian(buffer.GetSpan(4), value);
        buffer.Advance(4);
        return this;
    }

    public FrameBodyWriter I64(long value)
    {
        BinaryPrimitives.WriteInt64BigEndian(buffer.GetSpan(8), value);
        buffer.Advance(8);
        return this;
    }

    public FrameBodyWriter String(string value)
    {
        var bytes = Encoding.UTF8.GetBytes(value);
        U16(bytes.Length);
        buffer.Write(bytes);
        return this;
    }

    /// <summary>Bytes whose length the caller wrote before them.</summary>
    public FrameBodyWriter Bytes(ReadOnlySpan<byte> bytes)
    {
        buffer.Write(bytes);
        return this;
    }

    /// <summary>The rest of the body (a span's payload).</summary>
    public FrameBodyWriter Rest(ReadOnlySpan<byte> bytes)
    {
        buffer.Write(bytes);
        return this;
    }

    public byte[] Frame(RelayFrameType type) => RelayWire.Encode(type, buffer.WrittenSpan);
}
