using System.Buffers.Binary;
using System.Security.Cryptography;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.Tests;

/// <summary>
/// An LND payee's history of invoices written into a bbolt channel.db laid out as LND's key-value invoices
/// (<c>channeldb/invoices.go</c>): the newest settled invoice, serialized as LND does (a TLV body and its HTLCs), copied
/// into the invoices bucket and every index (payment hash, payment address, add and settle index) with fresh
/// preimages, hashes and addresses, the next numbers, indexes, timestamps and HTLC ids; <c>nik</c> and the index
/// sequences moved past them; the file written afresh and read back. A store with nothing to copy, or closed, is
/// refused in one line.
/// </summary>
[Trait("Category", "Unit")]
public class LndKvInvoicesTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-kvinvoices-").FullName;

    private static readonly byte[] Created = GoTime(63_900_000_000, 500_000_000);

    [Fact]
    public async Task The_newest_settled_invoice_is_copied_into_every_index_with_fresh_hashes_addresses_and_indexes()
    {
        var path = ChannelDbs.Write(directory, Store());

        var (written, check) = await new LndInvoicesHistory().WriteAsync(new HistoryStore(directory), 5_000);

        Assert.Equal(4_998, written);
        Assert.Equal(new HistoryCheck("ListInvoices", "invoices", 5_000), check);
        var root = BoltReader.Read(path).Root;
        var invoices = root.Bucket("invoices")!;
        Assert.Equal(5_000, LndKvInvoices.Count(root));
        Assert.Equal(BigEndian32(5_000), invoices.Bucket("paymenthashes")!.Get("nik"u8));
        Assert.Equal(5_000UL, invoices.Bucket("invoice-add-index")!.Sequence);
        Assert.Equal(4_999UL, invoices.Bucket("invoice-settle-index")!.Sequence);
        // The last copy: invoice number 4,999, add index 5,000, settle index 4,999, 4,998 ms after the template.
        var key = BigEndian32(4_999);
        var value = invoices.Get(key)!;
        var fields = Fields(value);
        Assert.Equal(5_000UL, BinaryPrimitives.ReadUInt64BigEndian(fields[4]));
        Assert.Equal(4_999UL, BinaryPrimitives.ReadUInt64BigEndian(fields[5]));
        Assert.Equal(GoTime(63_900_000_005, 498_000_000), fields[2]);
        Assert.Equal(key, invoices.Bucket("paymenthashes")!.Get(SHA256.HashData(fields[6])));
        Assert.Equal(key, root.Bucket("pay-addr-index")!.Get(fields[10]));
        Assert.Equal(key, invoices.Bucket("invoice-add-index")!.Get(BigEndian64(5_000)));
        Assert.Equal(key, invoices.Bucket("invoice-settle-index")!.Get(BigEndian64(4_999)));
        Assert.Equal([1], fields[12]);
        // Its HTLC, at an id no live HTLC takes (the 4,998th copy's first).
        var htlc = Fields(value, HtlcAt(value));
        Assert.Equal((ulong)LndInvoicesHistory.CopiedHtlcIds + 4_997, BinaryPrimitives.ReadUInt64BigEndian(htlc[3]));
        Assert.Equal(BigEndian64(123), htlc[1]);
        // Every copy another payment: 5,000 hashes, 4,999 addresses (the open invoice has none).
        Assert.Equal(5_001, invoices.Bucket("paymenthashes")!.Entries.Count);
        Assert.Equal(4_999, root.Bucket("pay-addr-index")!.Entries.Count);
        // The rest of the file as it was.
        Assert.Equal("kept"u8.ToArray(), root.Bucket("graph-meta")!.Get("x"u8));
    }

    [Fact]
    public void A_store_with_no_settled_invoice_or_closed_is_refused_in_one_line()
    {
        var unpaid = Store();
        unpaid.Bucket("invoices")!.Bucket("invoice-settle-index")!.Set(BigEndian64(1), BigEndian32(0));
        var noSettled = Assert.Throws<InvalidOperationException>(() => LndKvInvoices.AddCopies(unpaid, 10));
        Assert.Equal(
            "the node has no paid invoice to copy in its channel.db (no settled invoice): it was paid nothing",
            noSettled.Message
        );
        var closed = Store();
        closed.Bucket("invoices")!.Put("invoice-tombstone"u8.ToArray(), "1"u8.ToArray());
        Assert.Contains(
            "invoice-tombstone",
            Assert.Throws<InvalidOperationException>(() => LndKvInvoices.AddCopies(closed, 10)).Message
        );
        Assert.Equal((0, 2), LndKvInvoices.AddCopies(Store(), 2));
    }

    /// <summary>A channel.db's root: invoice 0 open (no payment address), invoice 1 settled (add index 2, settle index 1) with one HTLC.</summary>
    private static BoltBucket Store()
    {
        var root = new BoltBucket();
        var invoices = new BoltBucket();
        var hashes = new BoltBucket();
        var adds = new BoltBucket(2);
        var settles = new BoltBucket(1);
        var addresses = new BoltBucket();
        var open = Invoice(addIndex: 1, settleIndex: 0, state: 0, preimage: 7, address: new byte[32], htlcs: false);
        var paid = Invoice(addIndex: 2, settleIndex: 1, state: 1, preimage: 8, address: Filled(9), htlcs: true);
        invoices.Put(BigEndian32(0), open);
        invoices.Put(BigEndian32(1), paid);
        hashes.Put(SHA256.HashData(Filled(7)), BigEndian32(0));
        hashes.Put(SHA256.HashData(Filled(8)), BigEndian32(1));
        hashes.Put("nik"u8.ToArray(), BigEndian32(2));
        adds.Put(BigEndian64(1), BigEndian32(0));
        adds.Put(BigEndian64(2), BigEndian32(1));
        settles.Put(BigEndian64(1), BigEndian32(1));
        addresses.Put(Filled(9), BigEndian32(1));
        invoices.PutBucket("paymenthashes"u8.ToArray(), hashes);
        invoices.PutBucket("invoice-add-index"u8.ToArray(), adds);
        invoices.PutBucket("invoice-settle-index"u8.ToArray(), settles);
        root.PutBucket("invoices"u8.ToArray(), invoices);
        root.PutBucket("pay-addr-index"u8.ToArray(), addresses);
        var graph = new BoltBucket();
        graph.Put("x"u8.ToArray(), "kept"u8.ToArray());
        root.PutBucket("graph-meta"u8.ToArray(), graph);
        return root;
    }

    /// <summary>An invoice as LND serializes it: its TLV body's length (8 bytes) and body, then each HTLC's length and TLV stream.</summary>
    private static byte[] Invoice(
        ulong addIndex,
        ulong settleIndex,
        byte state,
        byte preimage,
        byte[] address,
        bool htlcs
    )
    {
        var body = Tlv(
            (0, "lnbench: a payment for the history"u8.ToArray()),
            (1, new byte[300]),
            (2, Created),
            (3, settleIndex == 0 ? GoTime(0, 0) : Created),
            (4, BigEndian64(addIndex)),
            (5, BigEndian64(settleIndex)),
            (6, Filled(preimage)),
            (7, BigEndian64(1000)),
            (8, BigEndian32(80)),
            (9, BigEndian64(86400)),
            (10, address),
            (11, [0x02, 0x42, 0x00]),
            (12, [state]),
            (13, BigEndian64(settleIndex == 0 ? 0UL : 1000)),
            (14, [0]),
            (15, [])
        );
        var htlc = Tlv((1, BigEndian64(123)), (3, BigEndian64(0)), (5, BigEndian64(1000)), (15, [1]));
        return
        [
            .. BigEndian64((ulong)body.Length),
            .. body,
            .. htlcs ? [.. BigEndian64((ulong)htlc.Length), .. htlc] : Array.Empty<byte>(),
        ];
    }

    private static byte[] Tlv(params (byte Type, byte[] Value)[] records) =>
        records
            .SelectMany(r =>
                r.Value.Length < 0xfd
                    ? [r.Type, (byte)r.Value.Length, .. r.Value]
                    : (byte[])[r.Type, 0xfd, (byte)(r.Value.Length >> 8), (byte)r.Value.Length, .. r.Value]
            )
            .ToArray();

    /// <summary>The records of the TLV stream prefixed by its length at <paramref name="at"/>.</summary>
    private static Dictionary<int, byte[]> Fields(byte[] value, int at = 0)
    {
        var end = at + 8 + (int)BinaryPrimitives.ReadUInt64BigEndian(value.AsSpan(at));
        var fields = new Dictionary<int, byte[]>();
        for (var i = at + 8; i < end; )
        {
            var type = value[i++];
            var length = value[i] == 0xfd ? (value[i + 1] << 8) | value[i + 2] : value[i];
            i += value[i] == 0xfd ? 3 : 1;
            fields[type] = value[i..(i + length)];
            i += length;
        }
        return fields;
    }

    private static int HtlcAt(byte[] value) => 8 + (int)BinaryPrimitives.ReadUInt64BigEndian(value);

    private static byte[] GoTime(long seconds, int nanoseconds)
    {
        var time = new byte[15];
        time[0] = 1;
        BinaryPrimitives.WriteInt64BigEndian(time.AsSpan(1), seconds);
        BinaryPrimitives.WriteInt32BigEndian(time.AsSpan(9), nanoseconds);
        BinaryPrimitives.WriteInt16BigEndian(time.AsSpan(13), -1);
        return time;
    }

    private static byte[] Filled(byte b) => Enumerable.Repeat(b, 32).ToArray();

    private static byte[] BigEndian32(uint value) => LndKvStore.BigEndian32(value);

    private static byte[] BigEndian64(ulong value) => LndKvStore.BigEndian64(value);

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
