using NBitcoin;

namespace Lightning.Bench.Graph;

/// <summary>
/// The node ids a snapshot's node indexes stand for in a gossip store made from it, as Core Lightning's
/// devtools/gossmap-compress gives them: the public key of a secret whose first 8 bytes are the index (little-endian)
/// and the other 24 are 0x01; an index mapped onto a real node (its --node-map) takes that node's id instead.
/// </summary>
internal sealed class GraphNodeIds
{
    private readonly byte[]?[] ids;
    private readonly IReadOnlyDictionary<int, byte[]> mapped;

    /// <param name="mapped">Indexes mapped onto real nodes, with their 33-byte ids.</param>
    public GraphNodeIds(int nodeCount, IReadOnlyDictionary<int, byte[]> mapped)
        : this(new byte[]?[nodeCount], mapped) { }

    private GraphNodeIds(byte[]?[] ids, IReadOnlyDictionary<int, byte[]> mapped)
    {
        this.ids = ids;
        this.mapped = mapped;
    }

    /// <summary>The same derived ids (shared, derived once), with <paramref name="index"/> mapped onto a real node's <paramref name="id"/>.</summary>
    public GraphNodeIds Mapping(int index, byte[] id) => new(ids, new Dictionary<int, byte[]> { [index] = id });

    public int Count => ids.Length;

    /// <summary>The 33-byte compressed id of node <paramref name="index"/>.</summary>
    public byte[] this[int index] => mapped.TryGetValue(index, out var id) ? id : ids[index] ??= Derived(index);

    /// <summary>As hex, the way RPCs take it.</summary>
    public string Hex(int index) => Convert.ToHexStringLower(this[index]);

    /// <summary>Derives every id at once, on every core (17,324 take about a second on one).</summary>
    public void DeriveAll(IEnumerable<int> indexes) =>
        Parallel.ForEach(indexes.Where(i => !mapped.ContainsKey(i) && ids[i] is null), i => ids[i] = Derived(i));

    private static byte[] Derived(int index)
    {
        var secret = new byte[32];
        Array.Fill(secret, (byte)1);
        BitConverter.TryWriteBytes(secret.AsSpan(0, 8), (ulong)index);
        if (!BitConverter.IsLittleEndian)
        {
            secret.AsSpan(0, 8).Reverse();
        }
        using var key = new Key(secret);
        return key.PubKey.ToBytes();
    }
}
