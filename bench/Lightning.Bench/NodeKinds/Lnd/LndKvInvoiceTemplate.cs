using System.Buffers.Binary;
using System.Security.Cryptography;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// An invoice as LND keeps it in its key-value store (<c>serializeInvoice</c>: the body's TLV stream after its length,
/// 8 bytes big-endian, then each HTLC's TLV stream after its length), and where in it the fields a copy changes are:
/// dates, add and settle index, preimage, payment address and each HTLC's id, all of fixed size, so a copy is the
/// template's bytes with those overwritten.
/// </summary>
internal sealed class LndKvInvoiceTemplate
{
    // The invoice body's TLV types (channeldb/invoices.go).
    private const ulong CreateTime = 2;
    private const ulong SettleTime = 3;
    private const ulong AddIndex = 4;
    private const ulong SettleIndex = 5;
    private const ulong Preimage = 6;
    private const ulong PaymentAddr = 10;
    private const ulong State = 12;

    /// <summary>An HTLC's id in its TLV stream.</summary>
    private const ulong HtlcId = 3;

    private readonly byte[] value;
    private readonly Dictionary<ulong, (int Offset, int Length)> fields;
    private readonly List<int> htlcIds;

    private LndKvInvoiceTemplate(byte[] value, Dictionary<ulong, (int Offset, int Length)> fields, List<int> htlcIds) =>
        (this.value, this.fields, this.htlcIds) = (value, fields, htlcIds);

    public bool Settled =>
        fields.TryGetValue(State, out var s) && s.Length == 1 && value[s.Offset] == LndInvoicesHistory.Settled;

    /// <summary>The body's records and each HTLC's id; null when it is not an invoice as LND writes one.</summary>
    public static LndKvInvoiceTemplate? Parse(byte[] value)
    {
        if (value.Length < 8)
        {
            return null;
        }
        var bodyLength = (long)BinaryPrimitives.ReadUInt64BigEndian(value);
        if (bodyLength > value.Length - 8 || Records(value, 8, 8 + (int)bodyLength) is not { } fields)
        {
            return null;
        }
        var htlcIds = new List<int>();
        for (var at = 8 + (int)bodyLength; at < value.Length; )
        {
            var length = value.Length - at >= 8 ? (long)BinaryPrimitives.ReadUInt64BigEndian(value.AsSpan(at)) : -1;
            if (
                length < 0
                || length > value.Length - at - 8
                || Records(value, at + 8, at + 8 + (int)length) is not { } htlc
            )
            {
                return null;
            }
            if (htlc.TryGetValue(HtlcId, out var id) && id.Length == 8)
            {
                htlcIds.Add(id.Offset);
            }
            at += 8 + (int)length;
        }
        var fixedSizes = new Dictionary<ulong, int>
        {
            [AddIndex] = 8,
            [SettleIndex] = 8,
            [Preimage] = 32,
            [PaymentAddr] = 32,
        };
        return fixedSizes.All(f => fields.TryGetValue(f.Key, out var r) && r.Length == f.Value)
            ? new LndKvInvoiceTemplate(value, fields, htlcIds)
            : null;
    }

    /// <summary>The <paramref name="n"/>th copy: its value, payment hash and payment address (null when the template has none, as legacy keysend).</summary>
    public (byte[] Value, byte[] Hash, byte[]? Address) Copy(
        long n,
        ulong addIndex,
        ulong settleIndex,
        ReadOnlySpan<byte> preimage,
        ReadOnlySpan<byte> address
    )
    {
        var copy = (byte[])value.Clone();
        BinaryPrimitives.WriteUInt64BigEndian(copy.AsSpan(fields[AddIndex].Offset), addIndex);
        BinaryPrimitives.WriteUInt64BigEndian(copy.AsSpan(fields[SettleIndex].Offset), settleIndex);
        preimage.CopyTo(copy.AsSpan(fields[Preimage].Offset));
        var addressField = copy.AsSpan(fields[PaymentAddr].Offset, 32);
        var hasAddress = addressField.ContainsAnyExcept((byte)0);
        if (hasAddress)
        {
            address.CopyTo(addressField);
        }
        foreach (var time in (ulong[])[CreateTime, SettleTime])
        {
            if (fields.TryGetValue(time, out var t))
            {
                GoTime.AddMilliseconds(copy.AsSpan(t.Offset, t.Length), n);
            }
        }
        for (var h = 0; h < htlcIds.Count; h++)
        {
            var id = (ulong)LndInvoicesHistory.CopiedHtlcIds + (ulong)((n - 1) * htlcIds.Count + h);
            BinaryPrimitives.WriteUInt64BigEndian(copy.AsSpan(htlcIds[h]), id);
        }
        return (copy, SHA256.HashData(preimage), hasAddress ? addressField.ToArray() : null);
    }

    /// <summary>A TLV stream's records (BOLT's BigSize type and length) by type: where each value is and how long; null when cut.</summary>
    private static Dictionary<ulong, (int Offset, int Length)>? Records(byte[] bytes, int at, int end)
    {
        var records = new Dictionary<ulong, (int Offset, int Length)>();
        while (at < end)
        {
            if (BigSize(bytes, ref at, end) is not { } type || BigSize(bytes, ref at, end) is not { } length)
            {
                return null;
            }
            if (length > (ulong)(end - at))
            {
                return null;
            }
            records[type] = (at, (int)length);
            at += (int)length;
        }
        return records;
    }

    private static ulong? BigSize(byte[] bytes, ref int at, int end)
    {
        if (at >= end)
        {
            return null;
        }
        var width = bytes[at] switch
        {
            0xfd => 2,
            0xfe => 4,
            0xff => 8,
            _ => 0,
        };
        if (width == 0)
        {
            return bytes[at++];
        }
        if (at + 1 + width > end)
        {
            return null;
        }
        var span = bytes.AsSpan(at + 1, width);
        at += 1 + width;
        return width switch
        {
            2 => BinaryPrimitives.ReadUInt16BigEndian(span),
            4 => BinaryPrimitives.ReadUInt32BigEndian(span),
            _ => BinaryPrimitives.ReadUInt64BigEndian(span),
        };
    }
}
