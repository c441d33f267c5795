namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>
/// A bbolt bucket held whole in memory: its sequence (what <c>NextSequence</c> counts up) and its keys in bbolt's order
/// (bytewise), each a value or a nested bucket. Keys added by <see cref="Put"/> are sorted once, when the entries are
/// next read, so adding a million is not a million insertions; a key added twice is refused then.
/// </summary>
internal sealed class BoltBucket(ulong sequence = 0)
{
    private readonly List<BoltEntry> entries = [];
    private bool sorted = true;

    public ulong Sequence { get; set; } = sequence;

    /// <summary>The entries in key order.</summary>
    public IReadOnlyList<BoltEntry> Entries
    {
        get
        {
            Sort();
            return entries;
        }
    }

    /// <summary>The nested bucket under <paramref name="name"/> (its ASCII bytes), or null.</summary>
    public BoltBucket? Bucket(string name) =>
        Find(System.Text.Encoding.ASCII.GetBytes(name)) is { Bucket: { } b } ? b : null;

    /// <summary>The nested bucket under the binary key <paramref name="key"/>, or null.</summary>
    public BoltBucket? Bucket(ReadOnlySpan<byte> key) => Find(key) is { Bucket: { } b } ? b : null;

    /// <summary>The value under <paramref name="key"/>, or null (none, or a bucket).</summary>
    public byte[]? Get(ReadOnlySpan<byte> key) => Find(key)?.Value;

    /// <summary>Adds a key that is not in the bucket yet (checked when the entries are next sorted).</summary>
    public void Put(byte[] key, byte[] value) => Add(new BoltEntry(key, value, null));

    /// <summary>Adds a nested bucket under a key that is not in the bucket yet.</summary>
    public void PutBucket(byte[] key, BoltBucket bucket) => Add(new BoltEntry(key, null, bucket));

    /// <summary>Sets the value under <paramref name="key"/>, replacing the one there.</summary>
    public void Set(byte[] key, byte[] value)
    {
        Sort();
        var at = IndexOf(key);
        if (at >= 0)
        {
            entries[at] = new BoltEntry(key, value, null);
        }
        else
        {
            Put(key, value);
        }
    }

    private void Add(BoltEntry entry)
    {
        if (sorted && entries.Count > 0 && Compare(entries[^1].Key, entry.Key) >= 0)
        {
            sorted = false;
        }
        entries.Add(entry);
    }

    private BoltEntry? Find(ReadOnlySpan<byte> key)
    {
        Sort();
        var at = IndexOf(key);
        return at >= 0 ? entries[at] : null;
    }

    private int IndexOf(ReadOnlySpan<byte> key)
    {
        var (low, high) = (0, entries.Count - 1);
        while (low <= high)
        {
            var middle = low + (high - low) / 2;
            var order = entries[middle].Key.AsSpan().SequenceCompareTo(key);
            if (order == 0)
            {
                return middle;
            }
            (low, high) = order < 0 ? (middle + 1, high) : (low, middle - 1);
        }
        return -1;
    }

    private void Sort()
    {
        if (sorted)
        {
            return;
        }
        entries.Sort((a, b) => Compare(a.Key, b.Key));
        for (var i = 1; i < entries.Count; i++)
        {
            if (Compare(entries[i - 1].Key, entries[i].Key) == 0)
            {
                throw new InvalidOperationException(
                    $"a bbolt bucket was given the key {Convert.ToHexString(entries[i].Key)} twice"
                );
            }
        }
        sorted = true;
    }

    private static int Compare(byte[] a, byte[] b) => a.AsSpan().SequenceCompareTo(b);
}
