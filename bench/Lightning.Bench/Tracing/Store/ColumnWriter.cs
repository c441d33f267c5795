namespace Lightning.Bench.Tracing.Store;

/// <summary>One column of a span store block as it is built: bytes, LEB128 varints and zigzag varints, appended.</summary>
internal sealed class ColumnWriter
{
    private byte[] buffer = new byte[256];

    public int Length { get; private set; }

    public ReadOnlySpan<byte> Written => buffer.AsSpan(0, Length);

    public void Clear() => Length = 0;

    public void WriteByte(byte value) => Reserve(1)[0] = value;

    public void WriteBytes(ReadOnlySpan<byte> bytes) => bytes.CopyTo(Reserve(bytes.Length));

    public void WriteVarint(ulong value)
    {
        var target = Reserve(10);
        var used = 0;
        while (value >= 0x80)
        {
            target[used++] = (byte)(value | 0x80);
            value >>= 7;
        }
        target[used++] = (byte)value;
        Length -= 10 - used;
    }

    /// <summary>A signed number, small in either direction: 0, −1, 1, −2… as 0, 1, 2, 3….</summary>
    public void WriteSigned(long value) => WriteVarint((ulong)((value << 1) ^ (value >> 63)));

    /// <summary>A byte string: its length, then its bytes.</summary>
    public void WriteText(ReadOnlySpan<byte> bytes)
    {
        WriteVarint((ulong)bytes.Length);
        WriteBytes(bytes);
    }

    public void WriteUInt64(ulong value) =>
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64BigEndian(Reserve(8), value);

    private Span<byte> Reserve(int count)
    {
        if (Length + count > buffer.Length)
        {
            Array.Resize(ref buffer, Math.Max(buffer.Length * 2, Length + count));
        }
        var span = buffer.AsSpan(Length, count);
        Length += count;
        return span;
    }
}
