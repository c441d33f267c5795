using System.Buffers.Binary;

namespace Lightning.Bench.Graph;

/// <summary>
/// Writes a snapshot's channels as Core Lightning's gossip_store records, the records its devtools/gossmap-compress
/// decompress writes (the way Core Lightning's own tests load the mainnet graph into a node): per channel a
/// channel_announcement (all-zero signatures and chain hash, the short channel id made of the channel's index and its
/// ends' indexes), its gossip_store_channel_amount, and one channel_update per direction (timestamp 0, the disabled bit
/// where the snapshot has it); no node announcements. Written here rather than by that tool so any image can be given
/// a graph: release images do not ship Core Lightning's devtools.
/// </summary>
/// <remarks>
/// Records are appended to a node's own store in the version it wrote (14 before v25.09, 15 until v26.04, 16 since;
/// the completed flag from 15), so the node reads them without converting its store. One difference from the tool, on
/// purpose: the format's two special HTLC maxima ("the capacity", "99 % of it") become the capacity in msat, where the
/// tool writes the capacity's satoshi figure as msat (1/1000 of it, which makes most of the graph unusable above a few
/// thousand sat). And one addition: every record carries the dying flag (0x0800), which a node's pathfinding ignores
/// (only its own dying channels are left out) but its connectd does not stream to peers: without it, the payer sends
/// its peer some 150,000 announcements with no valid signature on connecting, the peer throttles it for "too much
/// traffic", and payments over that channel stall for seconds (seen: 1.7–12.9 s each, for the first 20 s after the
/// restart). <see cref="AsDecompressWrites"/> writes the tool's figures and flags instead.
/// </remarks>
internal sealed class GossipStoreWriter(GossmapSnapshot snapshot, GraphNodeIds ids)
{
    public const ushort CompletedBit = 0x2000;
    public const ushort DyingBit = 0x0800;
    public const ushort ChannelAnnouncement = 256;
    public const ushort ChannelUpdate = 258;
    public const ushort ChannelAmount = 4101;
    public const ushort StoreUuid = 4107;

    /// <summary>The store versions this writer knows (the byte a store starts with).</summary>
    public static readonly IReadOnlyList<byte> Versions = [14, 15, 16];

    /// <summary>Write the HTLC maxima as gossmap-compress decompress does (for comparing with its output byte for byte).</summary>
    public bool AsDecompressWrites { get; init; }

    /// <summary>A whole store (its version byte, the v16 uuid record of zeros, the channels), as the tool writes one.</summary>
    public void WriteStore(Stream output, byte version, IEnumerable<int> channels)
    {
        output.WriteByte(version);
        if (version >= 16)
        {
            var uuid = new byte[2 + 32];
            BinaryPrimitives.WriteUInt16BigEndian(uuid, StoreUuid);
            Record(output, version, uuid, dying: false);
        }
        Append(output, version, channels);
    }

    /// <summary>The channels' records, for the end of a store of <paramref name="version"/>; returns the bytes written.</summary>
    public long Append(Stream output, byte version, IEnumerable<int> channels)
    {
        if (!Versions.Contains(version))
        {
            throw new InvalidDataException(
                $"gossip_store version {version} is not one this harness writes ({string.Join(", ", Versions)})"
            );
        }
        var written = 0L;
        foreach (var i in channels)
        {
            var c = snapshot.Channels[i];
            written += Record(output, version, Announcement(i, c));
            var amount = new byte[2 + 8];
            BinaryPrimitives.WriteUInt16BigEndian(amount, ChannelAmount);
            BinaryPrimitives.WriteUInt64BigEndian(amount.AsSpan(2), c.CapacitySat);
            written += Record(output, version, amount);
            written += Record(output, version, Update(i, c, 0));
            written += Record(output, version, Update(i, c, 1));
        }
        return written;
    }

    /// <summary>The id the store gives channel <paramref name="index"/> (block = index + its first node, transaction = its second node, output = index's low 16 bits).</summary>
    public ulong ShortChannelId(int index) => ShortChannelId(index, snapshot.Channels[index]);

    /// <summary>As lightningd prints it: BLOCKxTXxOUT.</summary>
    public static string Format(ulong scid) => $"{scid >> 40}x{(scid >> 16) & 0xFFFFFF}x{scid & 0xFFFF}";

    private static ulong ShortChannelId(int index, GossmapChannel c) =>
        ((ulong)(uint)(index + c.Node1) << 40) | ((ulong)(uint)c.Node2 << 16) | (uint)(index & 0xFFFF);

    private byte[] Announcement(int index, GossmapChannel c)
    {
        var id1 = ids[c.Node1];
        var id2 = ids[c.Node2];
        var (first, second) = id1.AsSpan().SequenceCompareTo(id2) < 0 ? (id1, id2) : (id2, id1);
        var msg = new byte[2 + 4 * 64 + 2 + 32 + 8 + 4 * 33];
        BinaryPrimitives.WriteUInt16BigEndian(msg, ChannelAnnouncement);
        var at = 2 + 4 * 64 + 2 + 32;
        BinaryPrimitives.WriteUInt64BigEndian(msg.AsSpan(at), ShortChannelId(index, c));
        at += 8;
        first.CopyTo(msg, at);
        second.CopyTo(msg, at + 33);
        // The tool gives both bitcoin keys as the first end's id, unsorted.
        id1.CopyTo(msg, at + 66);
        id1.CopyTo(msg, at + 99);
        return msg;
    }

    private byte[] Update(int index, GossmapChannel c, int direction)
    {
        var half = direction == 0 ? c.Forward : c.Backward;
        // The direction is from the lesser id: reversed when the first end's id is the greater.
        var flag = ids[c.Node1].AsSpan().SequenceCompareTo(ids[c.Node2]) > 0 ? 1 - direction : direction;
        var msg = new byte[2 + 64 + 32 + 8 + 4 + 1 + 1 + 2 + 8 + 4 + 4 + 8];
        BinaryPrimitives.WriteUInt16BigEndian(msg, ChannelUpdate);
        var at = 2 + 64 + 32;
        BinaryPrimitives.WriteUInt64BigEndian(msg.AsSpan(at), ShortChannelId(index, c));
        at += 8 + 4;
        msg[at++] = 1;
        msg[at++] = (byte)(flag | (half.Disabled ? 2 : 0));
        BinaryPrimitives.WriteUInt16BigEndian(msg.AsSpan(at), (ushort)half.Delay);
        BinaryPrimitives.WriteUInt64BigEndian(msg.AsSpan(at + 2), half.HtlcMinMsat);
        BinaryPrimitives.WriteUInt32BigEndian(msg.AsSpan(at + 10), (uint)half.BaseFeeMsat);
        BinaryPrimitives.WriteUInt32BigEndian(msg.AsSpan(at + 14), (uint)half.FeePpm);
        BinaryPrimitives.WriteUInt64BigEndian(msg.AsSpan(at + 18), HtlcMax(c, half));
        return msg;
    }

    private ulong HtlcMax(GossmapChannel c, GossmapDirection half) =>
        !AsDecompressWrites
            ? half.HtlcMaxMsat
            : half.HtlcMaxAsWritten switch
            {
                0 => c.CapacitySat,
                1 => (ulong)(c.CapacitySat * 0.99),
                var v => v,
            };

    /// <summary>One record: flags, length, CRC-32C of the message (seeded with the timestamp, 0), timestamp 0, message.</summary>
    private int Record(Stream output, byte version, byte[] msg) =>
        Record(output, version, msg, dying: !AsDecompressWrites);

    private static int Record(Stream output, byte version, byte[] msg, bool dying)
    {
        Span<byte> header = stackalloc byte[12];
        BinaryPrimitives.WriteUInt16BigEndian(
            header,
            (ushort)((version >= 15 ? CompletedBit : 0) | (dying ? DyingBit : 0))
        );
        BinaryPrimitives.WriteUInt16BigEndian(header[2..], (ushort)msg.Length);
        BinaryPrimitives.WriteUInt32BigEndian(header[4..], Crc32c.Compute(0, msg));
        BinaryPrimitives.WriteUInt32BigEndian(header[8..], 0);
        output.Write(header);
        output.Write(msg);
        return header.Length + msg.Length;
    }
}
