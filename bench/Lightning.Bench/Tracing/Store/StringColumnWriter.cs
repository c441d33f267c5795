using System.Text;

namespace Lightning.Bench.Tracing.Store;

/// <summary>Strings that repeat within a block: a reference per value (0: new, its text follows in the texts column; k: the k-th string seen).</summary>
internal sealed class StringColumnWriter
{
    private readonly Dictionary<string, int> seen = new(StringComparer.Ordinal);

    public ColumnWriter Refs { get; } = new();

    public ColumnWriter Texts { get; } = new();

    public void Add(ReadOnlySpan<byte> value)
    {
        // Latin-1 maps each byte to one char, so any bytes make a key that compares as the bytes do.
        var key = Encoding.Latin1.GetString(value);
        if (seen.TryGetValue(key, out var index))
        {
            Refs.WriteVarint((ulong)index + 1);
            return;
        }
        seen[key] = seen.Count;
        Refs.WriteVarint(0);
        Texts.WriteText(value);
    }

    public void Clear()
    {
        seen.Clear();
        Refs.Clear();
        Texts.Clear();
    }
}
