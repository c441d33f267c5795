using System.Buffers.Binary;
using static Lightning.Bench.NodeKinds.Lnd.Bolt.BoltFormat;

namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>
/// Reads a whole bbolt file into memory (<see cref="BoltDatabase"/>): the current meta page (valid, the higher
/// transaction id), then every bucket from the root, through branch pages to leaf pages, nested and inline buckets,
/// each key and value copied out. A file that is not bbolt, or a page that is not where its parent says, is refused
/// with <see cref="InvalidDataException"/> naming the file and the page.
/// </summary>
internal sealed class BoltReader
{
    private readonly byte[] file;
    private readonly string path;
    private readonly int pageSize;
    private readonly ulong highWater;

    private BoltReader(byte[] file, string path, int pageSize, ulong highWater)
    {
        (this.file, this.path, this.pageSize, this.highWater) = (file, path, pageSize, highWater);
    }

    public static BoltDatabase Read(string path)
    {
        var length = new FileInfo(path).Length;
        if (length > Array.MaxLength)
        {
            throw new InvalidDataException(
                $"{path} is {length / 1e9:0.#} GB: the harness reads bbolt files under 2 GB"
            );
        }
        var file = File.ReadAllBytes(path);
        var first = Meta(file, PageHeaderSize);
        var second = Meta(file, (first?.PageSize ?? DefaultPageSize) + PageHeaderSize);
        var meta =
            (first, second) switch
            {
                ({ } a, { } b) => a.TxId >= b.TxId ? a : b,
                ({ } a, null) => a,
                (null, { } b) => b,
                _ => null,
            }
            ?? throw new InvalidDataException(
                $"{path} has no valid bbolt meta page: it is not a bbolt file, or is damaged"
            );
        var reader = new BoltReader(file, path, meta.PageSize, meta.HighWater);
        var root = new BoltBucket(meta.RootSequence);
        try
        {
            reader.ReadPage(meta.Root, root, 0);
        }
        catch (ArgumentOutOfRangeException)
        {
            throw new InvalidDataException($"{path} is damaged: an element of one of its pages points outside it");
        }
        return new BoltDatabase(meta.PageSize, meta.TxId, meta.Freelist != NoFreelist, root);
    }

    private sealed record MetaPage(
        int PageSize,
        ulong Root,
        ulong RootSequence,
        ulong Freelist,
        ulong HighWater,
        ulong TxId
    );

    private static MetaPage? Meta(byte[] file, int offset)
    {
        if (offset + MetaSize > file.Length)
        {
            return null;
        }
        var m = file.AsSpan(offset, MetaSize);
        var valid =
            BinaryPrimitives.ReadUInt32LittleEndian(m) == Magic
            && BinaryPrimitives.ReadUInt32LittleEndian(m[4..]) == BoltFormat.Version
            && BinaryPrimitives.ReadUInt64LittleEndian(m[MetaChecksummed..]) == Fnv1a64(m[..MetaChecksummed]);
        return valid
            ? new MetaPage(
                (int)BinaryPrimitives.ReadUInt32LittleEndian(m[8..]),
                BinaryPrimitives.ReadUInt64LittleEndian(m[16..]),
                BinaryPrimitives.ReadUInt64LittleEndian(m[24..]),
                BinaryPrimitives.ReadUInt64LittleEndian(m[32..]),
                BinaryPrimitives.ReadUInt64LittleEndian(m[40..]),
                BinaryPrimitives.ReadUInt64LittleEndian(m[48..])
            )
            : null;
    }

    /// <summary>Adds the entries under page <paramref name="id"/> (a branch's children in order, or a leaf's) to <paramref name="bucket"/>.</summary>
    private void ReadPage(ulong id, BoltBucket bucket, int depth)
    {
        if (id < 2 || id >= highWater || (long)id * pageSize + PageHeaderSize > file.Length || depth > 64)
        {
            throw new InvalidDataException(
                $"{path}: page {id} is outside the file (its high water mark is {highWater})"
            );
        }
        var offset = (int)((long)id * pageSize);
        var page = file.AsSpan(offset);
        var flags = BinaryPrimitives.ReadUInt16LittleEndian(page[8..]);
        var count = BinaryPrimitives.ReadUInt16LittleEndian(page[10..]);
        if (BinaryPrimitives.ReadUInt64LittleEndian(page) != id)
        {
            throw new InvalidDataException(
                $"{path}: page {id} calls itself {BinaryPrimitives.ReadUInt64LittleEndian(page)}"
            );
        }
        if (flags == LeafPage)
        {
            ReadLeaf(file, offset, count, bucket, depth);
        }
        else if (flags == BranchPage)
        {
            for (var i = 0; i < count; i++)
            {
                ReadPage(
                    BinaryPrimitives.ReadUInt64LittleEndian(page[(PageHeaderSize + i * ElementSize + 8)..]),
                    bucket,
                    depth + 1
                );
            }
        }
        else
        {
            throw new InvalidDataException($"{path}: page {id} has flags {flags:x}, neither a branch nor a leaf");
        }
    }

    /// <summary>A leaf page's elements at <paramref name="offset"/> in <paramref name="bytes"/> (the file, or an inline bucket's value).</summary>
    private void ReadLeaf(byte[] bytes, int offset, int count, BoltBucket bucket, int depth)
    {
        for (var i = 0; i < count; i++)
        {
            var element = offset + PageHeaderSize + i * ElementSize;
            var e = bytes.AsSpan(element, ElementSize);
            var flags = BinaryPrimitives.ReadUInt32LittleEndian(e);
            var keyAt = element + (int)BinaryPrimitives.ReadUInt32LittleEndian(e[4..]);
            var key = bytes.AsSpan(keyAt, (int)BinaryPrimitives.ReadUInt32LittleEndian(e[8..])).ToArray();
            var value = bytes.AsSpan(keyAt + key.Length, (int)BinaryPrimitives.ReadUInt32LittleEndian(e[12..]));
            if ((flags & BucketLeaf) == 0)
            {
                bucket.Put(key, value.ToArray());
                continue;
            }
            var nested = new BoltBucket(BinaryPrimitives.ReadUInt64LittleEndian(value[8..]));
            var root = BinaryPrimitives.ReadUInt64LittleEndian(value);
            if (root == 0)
            {
                var inline = value.ToArray();
                ReadLeaf(
                    inline,
                    BucketHeaderSize,
                    BinaryPrimitives.ReadUInt16LittleEndian(inline.AsSpan(BucketHeaderSize + 10)),
                    nested,
                    depth + 1
                );
            }
            else
            {
                ReadPage(root, nested, depth + 1);
            }
            bucket.PutBucket(key, nested);
        }
    }
}
