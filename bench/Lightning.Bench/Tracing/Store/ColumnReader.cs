namespace Lightning.Bench.Tracing.Store;

/// <summary>Reads back what <see cref="ColumnWriter"/> wrote; reading past the end is a damaged store.</summary>
internal sealed class ColumnReader(SpanColumn column, byte[] data)
{
    private int position;

    public bool AtEnd => position == data.Length;

    public byte ReadByte() => Take(1)[0];

    public ReadOnlySpan<byte> ReadBytes(int count) => Take(count);

    public ulong ReadVarint()
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            var b = ReadByte();
            value |= (ulong)(b & 0x7f) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
        throw Damaged("a number longer than 64 bits");
    }

    public long ReadSigned()
    {
        var raw = ReadVarint();
        return (long)(raw >> 1) ^ -(long)(raw & 1);
    }

    public int ReadCount(int limit)
    {
        var value = ReadVarint();
        return value <= (ulong)limit ? (int)value : throw Damaged($"a count of {value} where at most {limit} fit");
    }

    public ReadOnlySpan<byte> ReadText() => Take(ReadCount(data.Length - position));

    public ulong ReadUInt64() => System.Buffers.Binary.BinaryPrimitives.ReadUInt64BigEndian(Take(8));

    /// <summary>Every value of the column was used: anything left over means the store and this reader disagree.</summary>
    public void CheckEnd()
    {
        if (!AtEnd)
        {
            throw Damaged($"{data.Length - position} bytes left over");
        }
    }

    private ReadOnlySpan<byte> Take(int count)
    {
        if (count < 0 || position + count > data.Length)
        {
            throw Damaged("it ends early");
        }
        var span = data.AsSpan(position, count);
        position += count;
        return span;
    }

    private InvalidDataException Damaged(string what) =>
        new($"the span store is damaged: its {column} column has {what}");
}
