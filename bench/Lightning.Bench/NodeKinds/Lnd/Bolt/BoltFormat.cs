using System.Buffers.Binary;

namespace Lightning.Bench.NodeKinds.Lnd.Bolt;

/// <summary>
/// bbolt's on-disk layout (v1.3 and v1.4 alike), little-endian as on the hosts LND runs on: pages of the meta page's size,
/// each with a 16-byte header (id, flags, element count, overflow pages); two meta pages (0 and 1, the one with the
/// higher transaction id current, each checked by FNV-1a 64 over its fields); branch pages of (position, key size,
/// child page) elements, leaf pages of (flags, position, key size, value size) elements, positions counted from the
/// element; a nested bucket's value is its root page and sequence, followed, for a small bucket kept inline (root 0),
/// by its one leaf page.
/// </summary>
internal static class BoltFormat
{
    public const uint Magic = 0xED0CDAED;
    public const uint Version = 2;
    public const int PageHeaderSize = 16;
    public const int ElementSize = 16;
    public const int BucketHeaderSize = 16;

    /// <summary>The meta's fields before its checksum, and with it.</summary>
    public const int MetaChecksummed = 56;
    public const int MetaSize = 64;

    public const ushort BranchPage = 0x01;
    public const ushort LeafPage = 0x02;
    public const ushort MetaPage = 0x04;
    public const ushort FreelistPage = 0x10;

    /// <summary>A leaf element that is a nested bucket.</summary>
    public const uint BucketLeaf = 0x01;

    /// <summary>The meta's freelist page when the freelist is not kept on disk (NoFreelistSync).</summary>
    public const ulong NoFreelist = ulong.MaxValue;

    /// <summary>The page size bbolt tries for the second meta when the first cannot be read.</summary>
    public const int DefaultPageSize = 4096;

    public static ulong Fnv1a64(ReadOnlySpan<byte> bytes)
    {
        var hash = 14695981039346656037UL;
        foreach (var b in bytes)
        {
            hash = (hash ^ b) * 1099511628211UL;
        }
        return hash;
    }

    public static void WriteHeader(Span<byte> page, ulong id, ushort flags, int count, int overflow)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(page, id);
        BinaryPrimitives.WriteUInt16LittleEndian(page[8..], flags);
        BinaryPrimitives.WriteUInt16LittleEndian(page[10..], checked((ushort)count));
        BinaryPrimitives.WriteUInt32LittleEndian(page[12..], checked((uint)overflow));
    }
}
