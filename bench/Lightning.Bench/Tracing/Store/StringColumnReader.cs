namespace Lightning.Bench.Tracing.Store;

/// <summary>Reads back what <see cref="StringColumnWriter"/> wrote.</summary>
internal sealed class StringColumnReader(ColumnReader refs, ColumnReader texts)
{
    private readonly List<byte[]> seen = new();

    public byte[] Next()
    {
        var reference = refs.ReadCount(seen.Count);
        if (reference > 0)
        {
            return seen[reference - 1];
        }
        var text = texts.ReadText().ToArray();
        seen.Add(text);
        return text;
    }

    public void CheckEnd()
    {
        refs.CheckEnd();
        texts.CheckEnd();
    }
}
