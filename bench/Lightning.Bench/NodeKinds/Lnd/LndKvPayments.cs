using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND's payments in its key-value store (<c>channeldb/payments.go</c> and <c>payment_control.go</c> to v0.19,
/// <c>payments/db/kv_store.go</c> from v0.20: the same buckets, keys and serialization in v0.18.5, v0.19.3, v0.20.3 and
/// v0.21.1): the top-level <c>payments-root-bucket</c> holds a sub-bucket per payment hash with its
/// <c>payment-sequence-key</c> (8 bytes, big-endian), <c>payment-creation-info</c> (the hash, amount, creation time,
/// the payment request and TLV records) and a <c>payment-htlcs-bucket</c> of its attempts, <c>ai</c>, <c>si</c> and
/// <c>fi</c> followed by the attempt id (8 bytes): the attempt (session key, route, attempt time, hash, TLV records), its
/// settlement (preimage, time) and failure. The top-level <c>payments-index-bucket</c> maps each sequence number to the
/// payment hash (a type byte 0 and the hash as var-bytes); the root bucket's own sequence is the upper bound of the
/// sequence numbers LND has handed out (it reserves them 1,000 at a time and starts from that bound at its start).
/// <see cref="AddCopies"/> adds copies of the newest succeeded payment to both.
/// </summary>
internal static class LndKvPayments
{
    private const string RootName = "payments-root-bucket";
    private const string IndexName = "payments-index-bucket";
    internal static readonly byte[] SequenceKey = Encoding.ASCII.GetBytes("payment-sequence-key");
    internal static readonly byte[] CreationKey = Encoding.ASCII.GetBytes("payment-creation-info");
    internal static readonly byte[] HtlcsKey = Encoding.ASCII.GetBytes("payment-htlcs-bucket");

    /// <summary>Why a release's key-value payments cannot be written, in one line (one outside <see cref="LndKvStore.Known"/>'s minors); or null.</summary>
    public static string? Refusal(IReadOnlyDictionary<string, string> versions) =>
        LndKvStore.Refusal(versions, "payments");

    /// <summary>
    /// Grows the stopped node's channel.db to <paramref name="rows"/> payments: read whole, copies added, written afresh
    /// beside it and moved over it. Returns the copies written and the sequence number of the last payment.
    /// </summary>
    public static (long Written, long LastSequence) Write(string nodeDirectory, long rows) =>
        LndKvStore.Rewrite(nodeDirectory, root => AddCopies(root, rows));

    /// <summary>The payments a root bucket of channel.db holds (a sub-bucket per payment hash).</summary>
    public static long Count(BoltBucket root) =>
        root.Bucket(RootName)?.Entries.Count(e => e.Bucket is not null && e.Key.Length == 32) ?? 0;

    /// <summary>
    /// Adds copies of the newest succeeded payment until the store holds <paramref name="rows"/> payments, each with a
    /// fresh preimage and its hash (the payment's key, its creation info's and every attempt's hash), fresh session
    /// keys, the next sequence numbers after the last given, timestamps 1 ms apart after the template's, and attempt
    /// ids from <see cref="LndPaymentsHistory.CopiedAttemptIndexes"/> (never one LND's sequencer hands out); moves the
    /// root bucket's sequence past them.
    /// </summary>
    public static (long Written, long LastSequence) AddCopies(BoltBucket root, long rows)
    {
        var payments = root.Bucket(RootName) ?? throw NothingToCopy("no payments bucket");
        var index = root.Bucket(IndexName) ?? throw NothingToCopy("no payments index");
        var last = index.Entries.Count > 0 ? BinaryPrimitives.ReadUInt64BigEndian(index.Entries[^1].Key) : 0UL;
        var toWrite = Math.Max(0, rows - Count(root));
        if (toWrite == 0)
        {
            return (0, (long)last);
        }
        var template = LndKvPaymentTemplate.Newest(payments, index) ?? throw NothingToCopy("no succeeded payment");
        var preimage = new byte[32];
        for (var i = 1L; i <= toWrite; i++)
        {
            RandomNumberGenerator.Fill(preimage);
            var hash = SHA256.HashData(preimage);
            var sequence = last + (ulong)i;
            var firstId = (ulong)LndPaymentsHistory.CopiedAttemptIndexes + (ulong)((i - 1) * template.Attempts.Count);
            payments.PutBucket(hash, template.Copy(hash, preimage, sequence, firstId, i * 1_000_000));
            index.Put(LndKvStore.BigEndian64(sequence), IndexEntry(hash));
        }
        payments.Sequence = Math.Max(payments.Sequence, last + (ulong)toWrite);
        return (toWrite, (long)(last + (ulong)toWrite));
    }

    /// <summary>An entry of the payments index: the index type (0, a payment hash) and the hash as var-bytes.</summary>
    internal static byte[] IndexEntry(ReadOnlySpan<byte> hash) => [0, 32, .. hash];

    private static InvalidOperationException NothingToCopy(string what) =>
        new($"the node has no succeeded payment to copy in its channel.db ({what}): it paid nothing");
}
