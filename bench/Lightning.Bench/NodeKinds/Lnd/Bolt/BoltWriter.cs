using System.Buffers.Binary;
using static Lightning.Bench.NodeKinds.Lnd.Bolt.BoltFormat;

namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>
/// Writes a <see cref="BoltDatabase"/> as a fresh, compact bbolt file, as <c>bbolt compact</c> leaves one: every
/// bucket's leaf pages filled to the page (a value larger than a page on overflow pages), branch pages over them up to
/// one root, a bucket without nested buckets that fits a quarter page kept inline in its parent (bbolt's own rule), no
/// free pages. The two meta pages name the root, the high water mark and the next transaction ids; the freelist is on
/// page 2, empty, when the original kept one on disk, or absent (bbolt rebuilds it at open) when it did not (LND's
/// NoFreelistSync). Pages go out in order, children before their parents.
/// </summary>
internal sealed class BoltWriter
{
    private readonly Stream output;
    private readonly int pageSize;
    private byte[] buffer;

    /// <summary>The next page id: 0 and 1 are the metas, 2 the freelist.</summary>
    private ulong next = 3;

    private BoltWriter(Stream output, int pageSize)
    {
        (this.output, this.pageSize) = (output, pageSize);
        buffer = new byte[pageSize];
    }

    /// <summary>Writes <paramref name="database"/> to <paramref name="path"/> (any file there is replaced).</summary>
    /// <remarks>
    /// One write a page, unbuffered, as bbolt writes its pages: Linux (6.18 here) keeps what one large write put in the
    /// page cache as large folios, and a folio is dirtied and written back whole, so every 4 kB page bbolt changed later
    /// in the node wrote its whole folio (11 MB a payment on 100,000 invoices written in 1 MB writes, against 0.6 MB on
    /// none).
    /// </remarks>
    public static void Write(BoltDatabase database, string path)
    {
        using var output = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0);
        Write(database, output);
        output.Flush(flushToDisk: true);
    }

    public static void Write(BoltDatabase database, Stream output)
    {
        var size = database.PageSize;
        output.Position = 3L * size;
        var writer = new BoltWriter(output, size);
        var root = writer.WritePages(database.Root);
        var highWater = writer.next;
        output.SetLength((long)highWater * size);
        output.Position = 0;
        var txId = database.TxId + 1;
        var freelist = database.FreelistSynced ? 2UL : NoFreelist;
        // Page txid % 2 holds the meta of that transaction; the other the one before it, to the same tree.
        var pages = new byte[3 * size];
        WriteMeta(
            pages.AsSpan(0, size),
            txId % 2 == 0 ? txId : txId - 1,
            size,
            root,
            database.Root.Sequence,
            freelist,
            highWater
        );
        WriteMeta(
            pages.AsSpan(size, size),
            txId % 2 == 1 ? txId : txId - 1,
            size,
            root,
            database.Root.Sequence,
            freelist,
            highWater
        );
        WriteHeader(pages.AsSpan(2 * size), 2, FreelistPage, 0, 0);
        for (var page = 0; page < 3; page++)
        {
            output.Write(pages.AsSpan(page * size, size));
        }
    }

    private static void WriteMeta(
        Span<byte> page,
        ulong txId,
        int pageSize,
        ulong root,
        ulong sequence,
        ulong freelist,
        ulong highWater
    )
    {
        WriteHeader(page, txId % 2, MetaPage, 0, 0);
        var m = page[PageHeaderSize..];
        BinaryPrimitives.WriteUInt32LittleEndian(m, Magic);
        BinaryPrimitives.WriteUInt32LittleEndian(m[4..], BoltFormat.Version);
        BinaryPrimitives.WriteUInt32LittleEndian(m[8..], (uint)pageSize);
        BinaryPrimitives.WriteUInt32LittleEndian(m[12..], 0);
        BinaryPrimitives.WriteUInt64LittleEndian(m[16..], root);
        BinaryPrimitives.WriteUInt64LittleEndian(m[24..], sequence);
        BinaryPrimitives.WriteUInt64LittleEndian(m[32..], freelist);
        BinaryPrimitives.WriteUInt64LittleEndian(m[40..], highWater);
        BinaryPrimitives.WriteUInt64LittleEndian(m[48..], txId);
        BinaryPrimitives.WriteUInt64LittleEndian(m[MetaChecksummed..], Fnv1a64(m[..MetaChecksummed]));
    }

    /// <summary>One element to lay out: a leaf's key and value (a nested bucket's as its parent stores it), or a branch's first key and child.</summary>
    private readonly record struct Element(byte[] Key, byte[]? Value, uint Flags, ulong Child);

    /// <summary>Writes a bucket's pages (nested buckets first) and returns its root page.</summary>
    private ulong WritePages(BoltBucket bucket)
    {
        var entries = bucket.Entries;
        var level = new List<Element>(entries.Count);
        foreach (var entry in entries)
        {
            level.Add(
                entry.Bucket is { } nested
                    ? new Element(entry.Key, BucketValue(nested), BucketLeaf, 0)
                    : new Element(entry.Key, entry.Value, 0, 0)
            );
        }
        var leaf = true;
        do
        {
            level = WriteLevel(level, leaf);
            leaf = false;
        } while (level.Count > 1);
        return level[0].Child;
    }

    /// <summary>A nested bucket's value in its parent: inline (root 0 and its one leaf page) when bbolt would keep it so, else its root page.</summary>
    private byte[] BucketValue(BoltBucket bucket)
    {
        var entries = bucket.Entries;
        var size = PageHeaderSize;
        var inline = true;
        foreach (var e in entries)
        {
            size += ElementSize + e.Key.Length + (e.Value?.Length ?? 0);
            if (e.Bucket is not null || size > pageSize / 4)
            {
                inline = false;
                break;
            }
        }
        var value = new byte[BucketHeaderSize + (inline ? size : 0)];
        BinaryPrimitives.WriteUInt64LittleEndian(value.AsSpan(8), bucket.Sequence);
        if (inline)
        {
            var elements = entries.Select(e => new Element(e.Key, e.Value, 0, 0)).ToList();
            Lay(value.AsSpan(BucketHeaderSize), 0, LeafPage, elements, 0, elements.Count, 0);
        }
        else
        {
            BinaryPrimitives.WriteUInt64LittleEndian(value, WritePages(bucket));
        }
        return value;
    }

    /// <summary>Writes one level of pages over <paramref name="elements"/>, as full as a page takes; returns the level above's elements.</summary>
    private List<Element> WriteLevel(List<Element> elements, bool leaf)
    {
        var above = new List<Element>(elements.Count / 8 + 1);
        var (start, size) = (0, PageHeaderSize);
        for (var i = 0; i <= elements.Count; i++)
        {
            var elementSize =
                i < elements.Count ? ElementSize + elements[i].Key.Length + (leaf ? elements[i].Value!.Length : 0) : 0;
            if (i == elements.Count || (i > start && size + elementSize > pageSize))
            {
                if (i > start || elements.Count == 0)
                {
                    above.Add(WritePage(elements, start, i, size, leaf));
                }
                (start, size) = (i, PageHeaderSize);
            }
            size += elementSize;
        }
        return above;
    }

    private Element WritePage(List<Element> elements, int start, int end, int size, bool leaf)
    {
        var pages = (size + pageSize - 1) / pageSize;
        if (buffer.Length < pages * pageSize)
        {
            buffer = new byte[pages * pageSize];
        }
        var page = buffer.AsSpan(0, pages * pageSize);
        page.Clear();
        var id = next;
        next += (ulong)pages;
        Lay(page, id, leaf ? LeafPage : BranchPage, elements, start, end, pages - 1);
        output.Write(page);
        return new Element(end > start ? elements[start].Key : [], null, 0, id);
    }

    /// <summary>A page's header, its elements, then their keys (and values) in order; positions are from each element.</summary>
    private static void Lay(
        Span<byte> page,
        ulong id,
        ushort flags,
        List<Element> elements,
        int start,
        int end,
        int overflow
    )
    {
        WriteHeader(page, id, flags, end - start, overflow);
        var data = PageHeaderSize + (end - start) * ElementSize;
        for (var i = start; i < end; i++)
        {
            var at = PageHeaderSize + (i - start) * ElementSize;
            var e = page[at..];
            var element = elements[i];
            var value = flags == LeafPage ? element.Value! : [];
            if (flags == LeafPage)
            {
                BinaryPrimitives.WriteUInt32LittleEndian(e, element.Flags);
                BinaryPrimitives.WriteUInt32LittleEndian(e[4..], (uint)(data - at));
                BinaryPrimitives.WriteUInt32LittleEndian(e[8..], (uint)element.Key.Length);
                BinaryPrimitives.WriteUInt32LittleEndian(e[12..], (uint)value.Length);
            }
            else
            {
                BinaryPrimitives.WriteUInt32LittleEndian(e, (uint)(data - at));
                BinaryPrimitives.WriteUInt32LittleEndian(e[4..], (uint)element.Key.Length);
                BinaryPrimitives.WriteUInt64LittleEndian(e[8..], element.Child);
            }
            element.Key.CopyTo(page[data..]);
            value.CopyTo(page[(data + element.Key.Length)..]);
            data += element.Key.Length + value.Length;
        }
    }
}
