using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND's invoices in its key-value store (<c>channeldb/invoices.go</c>, unchanged from v0.18.0 to v0.21.2): the
/// top-level <c>invoices</c> bucket maps each invoice number (4 bytes, big-endian) to the invoice, a length-prefixed TLV
/// body followed by its HTLCs, each a length-prefixed TLV stream; inside it, <c>paymenthashes</c> maps each payment hash
/// to the number (and <c>nik</c> to the next number), <c>invoice-add-index</c> and <c>invoice-settle-index</c> map each
/// add and settle index (8 bytes) to it, their bucket sequences the last index given; the top-level
/// <c>pay-addr-index</c> maps each payment address to it. <see cref="AddCopies"/> adds copies of the newest settled
/// invoice to all of them.
/// </summary>
internal static class LndKvInvoices
{
    /// <summary>
    /// Grows the stopped node's channel.db to <paramref name="rows"/> invoices: read whole, copies added, written afresh
    /// beside it and moved over it. Returns the copies written and the add index of the last.
    /// </summary>
    public static (long Written, long LastAddIndex) Write(string nodeDirectory, long rows) =>
        LndKvStore.Rewrite(nodeDirectory, root => AddCopies(root, rows));

    /// <summary>Why a release's key-value invoices cannot be written, in one line (one outside <see cref="LndKvStore.Known"/>'s minors); or null.</summary>
    public static string? Refusal(IReadOnlyDictionary<string, string> versions) =>
        LndKvStore.Refusal(
            versions,
            "invoices",
            "give it --db BUILD:postgres, or a history of invoices to one of those releases"
        );

    /// <summary>The invoices a root bucket of channel.db holds, counted as <see cref="AddCopies"/> counts them.</summary>
    public static long Count(BoltBucket root) =>
        root.Bucket("invoices")?.Entries.Count(e => e.Value is not null && e.Key.Length == 4) ?? 0;

    /// <summary>
    /// Adds copies of the newest settled invoice until the store holds <paramref name="rows"/> invoices, each with a
    /// fresh preimage, hash and payment address, the next invoice number, add and settle indexes, timestamps 1 ms apart
    /// after the template's, and its HTLCs' ids from <see cref="LndInvoicesHistory.CopiedHtlcIds"/> (never a live
    /// HTLC's); moves <c>nik</c> and the two index sequences past them.
    /// </summary>
    public static (long Written, long LastAddIndex) AddCopies(BoltBucket root, long rows)
    {
        var invoices = root.Bucket("invoices") ?? throw NothingToCopy("no invoices bucket");
        if (invoices.Get(Encoding.ASCII.GetBytes("invoice-tombstone")) is not null)
        {
            throw new InvalidOperationException(
                "the node's key-value invoices are closed (invoice-tombstone: they were moved to its SQL store)"
            );
        }
        var hashes = invoices.Bucket("paymenthashes") ?? throw NothingToCopy("no payment hash index");
        var adds = invoices.Bucket("invoice-add-index") ?? throw NothingToCopy("no add index");
        var settles = invoices.Bucket("invoice-settle-index") ?? throw NothingToCopy("no settle index");
        var addresses = root.Bucket("pay-addr-index") ?? throw NothingToCopy("no payment address index");
        var template = Template(invoices, settles);
        var toWrite = Math.Max(0, rows - Count(root));
        var nik = hashes.Get("nik"u8) is { Length: 4 } n ? BinaryPrimitives.ReadUInt32BigEndian(n) : 0u;
        if (nik + toWrite > uint.MaxValue)
        {
            throw new InvalidOperationException($"LND numbers invoices in 32 bits: {toWrite:N0} more do not fit");
        }
        var (addBase, settleBase) = (adds.Sequence, settles.Sequence);
        var buffer = new byte[64];
        for (var i = 1L; i <= toWrite; i++)
        {
            var key = LndKvStore.BigEndian32((uint)(nik + i - 1));
            RandomNumberGenerator.Fill(buffer);
            var copy = template.Copy(
                i,
                addBase + (ulong)i,
                settleBase + (ulong)i,
                buffer.AsSpan(0, 32),
                buffer.AsSpan(32)
            );
            invoices.Put(key, copy.Value);
            hashes.Put(copy.Hash, key);
            if (copy.Address is { } address)
            {
                addresses.Put(address, key);
            }
            adds.Put(LndKvStore.BigEndian64(addBase + (ulong)i), key);
            settles.Put(LndKvStore.BigEndian64(settleBase + (ulong)i), key);
        }
        hashes.Set("nik"u8.ToArray(), LndKvStore.BigEndian32((uint)(nik + toWrite)));
        adds.Sequence = addBase + (ulong)toWrite;
        settles.Sequence = settleBase + (ulong)toWrite;
        return (toWrite, (long)adds.Sequence);
    }

    private static InvalidOperationException NothingToCopy(string what) =>
        new($"the node has no paid invoice to copy in its channel.db ({what}): it was paid nothing");

    /// <summary>The newest settled invoice that is not AMP (its settle index names the invoice alone, not a set).</summary>
    private static LndKvInvoiceTemplate Template(BoltBucket invoices, BoltBucket settles)
    {
        for (var i = settles.Entries.Count - 1; i >= 0; i--)
        {
            if (
                settles.Entries[i].Value is { Length: 4 } key
                && invoices.Get(key) is { } value
                && LndKvInvoiceTemplate.Parse(value) is { Settled: true } template
            )
            {
                return template;
            }
        }
        throw NothingToCopy("no settled invoice");
    }
}
