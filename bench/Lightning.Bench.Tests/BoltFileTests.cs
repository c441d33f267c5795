using System.Buffers.Binary;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.Tests;

/// <summary>
/// The harness's bbolt writer read back by its reader: a tree of nested buckets (inline and on pages), a bucket of
/// thousands of keys over branch pages, a value larger than a page on overflow pages and sequences kept, byte for byte;
/// the meta pages as bbolt checks them (magic, version, FNV-1a checksum, the page of each transaction id), and the
/// freelist kept on disk or left for bbolt to rebuild as the original did. That real bbolt accepts what it writes is
/// LND's end-to-end test (<see cref="LndEndToEndTests"/>).
/// </summary>
[Trait("Category", "Unit")]
public class BoltFileTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-bolt-").FullName;

    [Theory]
    [InlineData(4096, false)]
    [InlineData(16384, true)]
    public void A_tree_written_is_read_back_key_for_key_with_its_sequences(int pageSize, bool freelistSynced)
    {
        var path = Path.Combine(directory, "tree.db");
        var written = new BoltDatabase(pageSize, 41, freelistSynced, Tree());

        BoltWriter.Write(written, path);
        var read = BoltReader.Read(path);

        Assert.Equal((pageSize, 42UL, freelistSynced), (read.PageSize, read.TxId, read.FreelistSynced));
        Assert.Equal(Flatten(written.Root), Flatten(read.Root));
        // Written again from what was read: the same file.
        var again = Path.Combine(directory, "again.db");
        BoltWriter.Write(read with { TxId = 41 }, again);
        Assert.Equal(File.ReadAllBytes(path), File.ReadAllBytes(again));
    }

    [Fact]
    public void The_meta_pages_are_as_bbolt_checks_them_with_checksums_that_hold_and_the_file_ends_at_the_high_water_mark()
    {
        var path = Path.Combine(directory, "meta.db");
        BoltWriter.Write(new BoltDatabase(4096, 7, false, Tree()), path);
        var file = File.ReadAllBytes(path);

        var txIds = new List<ulong>();
        for (var page = 0; page < 2; page++)
        {
            var header = file.AsSpan(page * 4096);
            var meta = header[16..];
            Assert.Equal((ulong)page, BinaryPrimitives.ReadUInt64LittleEndian(header));
            Assert.Equal(BoltFormat.MetaPage, BinaryPrimitives.ReadUInt16LittleEndian(header[8..]));
            Assert.Equal(0xED0CDAEDu, BinaryPrimitives.ReadUInt32LittleEndian(meta));
            Assert.Equal(2u, BinaryPrimitives.ReadUInt32LittleEndian(meta[4..]));
            Assert.Equal(4096u, BinaryPrimitives.ReadUInt32LittleEndian(meta[8..]));
            Assert.Equal(BoltFormat.NoFreelist, BinaryPrimitives.ReadUInt64LittleEndian(meta[32..]));
            Assert.Equal((ulong)file.Length / 4096, BinaryPrimitives.ReadUInt64LittleEndian(meta[40..]));
            var txId = BinaryPrimitives.ReadUInt64LittleEndian(meta[48..]);
            Assert.Equal((ulong)page, txId % 2);
            txIds.Add(txId);
            Assert.Equal(BoltFormat.Fnv1a64(meta[..56]), BinaryPrimitives.ReadUInt64LittleEndian(meta[56..]));
        }
        Assert.Equal([8UL, 7UL], txIds);
        // A damaged meta is passed over for the other, as bbolt does; with both damaged the file is refused.
        file[16 + 20] ^= 1;
        File.WriteAllBytes(path, file);
        Assert.Equal(7UL, BoltReader.Read(path).TxId);
        file[4096 + 16 + 20] ^= 1;
        File.WriteAllBytes(path, file);
        Assert.Contains(
            "no valid bbolt meta page",
            Assert.Throws<InvalidDataException>(() => BoltReader.Read(path)).Message
        );
    }

    [Fact]
    public void A_page_cut_short_or_pointing_outside_the_file_is_refused_naming_the_file()
    {
        var path = Path.Combine(directory, "cut.db");
        BoltWriter.Write(new BoltDatabase(4096, 1, false, Tree()), path);
        var file = File.ReadAllBytes(path);
        File.WriteAllBytes(path, file[..(file.Length / 2)]);
        Assert.StartsWith(path, Assert.Throws<InvalidDataException>(() => BoltReader.Read(path)).Message);
        // The last page's first element pointing far beyond the page.
        var lastPage = file.Length - 4096;
        file[lastPage + 16 + 4] = 0xff;
        file[lastPage + 16 + 5] = 0xff;
        file[lastPage + 16 + 6] = 0xff;
        File.WriteAllBytes(path, file);
        Assert.StartsWith(path, Assert.Throws<InvalidDataException>(() => BoltReader.Read(path)).Message);
    }

    [Fact]
    public void A_key_added_twice_is_refused_and_set_replaces_a_value()
    {
        var bucket = new BoltBucket();
        bucket.Put([2], [1]);
        bucket.Put([1], [1]);
        bucket.Set([2], [9]);
        Assert.Equal([9], bucket.Get([2]));
        bucket.Put([1], [3]);
        Assert.Contains("twice", Assert.Throws<InvalidOperationException>(() => bucket.Entries).Message);
    }

    /// <summary>Small and empty buckets (inline), one with a nested bucket (on pages), 5,000 keys in random order, a 10 kB value.</summary>
    private static BoltBucket Tree()
    {
        var root = new BoltBucket(3);
        root.PutBucket("empty"u8.ToArray(), new BoltBucket());
        var small = new BoltBucket(12);
        small.Put("a"u8.ToArray(), [1, 2, 3]);
        small.Put("b"u8.ToArray(), []);
        root.PutBucket("small"u8.ToArray(), small);
        var outer = new BoltBucket(5);
        var inner = new BoltBucket(99);
        inner.Put("deep"u8.ToArray(), "value"u8.ToArray());
        outer.PutBucket("inner"u8.ToArray(), inner);
        outer.Put("big"u8.ToArray(), Enumerable.Range(0, 10_000).Select(i => (byte)i).ToArray());
        root.PutBucket("outer"u8.ToArray(), outer);
        var many = new BoltBucket(5_000);
        var random = new Random(1);
        foreach (var i in Enumerable.Range(0, 5_000).OrderBy(_ => random.Next()))
        {
            var key = new byte[8];
            BinaryPrimitives.WriteUInt64BigEndian(key, (ulong)i * 7919);
            many.Put(key, new byte[random.Next(0, 200)]);
        }
        root.PutBucket("many"u8.ToArray(), many);
        root.Put("top"u8.ToArray(), [42]);
        return root;
    }

    /// <summary>Every bucket and value as lines (path, sequence, hex), in order.</summary>
    private static List<string> Flatten(BoltBucket bucket, string path = "")
    {
        var lines = new List<string> { $"{path} seq {bucket.Sequence}" };
        foreach (var e in bucket.Entries)
        {
            var name = $"{path}/{Convert.ToHexString(e.Key)}";
            if (e.Bucket is { } nested)
            {
                lines.AddRange(Flatten(nested, name));
            }
            else
            {
                lines.Add($"{name} = {Convert.ToHexString(e.Value!)}");
            }
        }
        return lines;
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
