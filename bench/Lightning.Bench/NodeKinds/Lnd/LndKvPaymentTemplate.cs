using System.Buffers.Binary;
using System.Security.Cryptography;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// A succeeded payment in LND's key-value store (<see cref="LndKvPayments"/>) that copies can be made of: its creation
/// info and its HTLC attempts, each its attempt info (with where its attempt time and hash are), settle info and fail
/// info, in attempt id order.
/// </summary>
internal sealed class LndKvPaymentTemplate
{
    /// <summary>One attempt: its info, where its hash is in it (its time is the 8 bytes before), and its resolution.</summary>
    public sealed record Attempt(byte[] Info, int HashAt, byte[]? Settle, byte[]? Fail);

    private readonly byte[] creation;

    private LndKvPaymentTemplate(byte[] creation, IReadOnlyList<Attempt> attempts)
    {
        this.creation = creation;
        Attempts = attempts;
    }

    public IReadOnlyList<Attempt> Attempts { get; }

    /// <summary>The session key (32 bytes), the route (at least its time lock, amount, source key and hop count).</summary>
    private const int RouteStart = 32 + 4 + 8 + 33 + 4;

    /// <summary>
    /// The newest payment, by its sequence number in the payments index, that succeeded: its own (not a duplicate's),
    /// no failure, a settled attempt and none unresolved, each attempt with the payment's hash (not AMP's per-attempt
    /// hashes); or null.
    /// </summary>
    public static LndKvPaymentTemplate? Newest(BoltBucket payments, BoltBucket index)
    {
        for (var i = index.Entries.Count - 1; i >= 0; i--)
        {
            var (sequence, entry) = (index.Entries[i].Key, index.Entries[i].Value);
            if (
                entry is [0, 32, ..]
                && entry.Length == 34
                && payments.Bucket(entry.AsSpan(2)) is { } payment
                && payment.Get(LndKvPayments.SequenceKey) is { } own
                && own.AsSpan().SequenceEqual(sequence)
                && Parse(entry.AsSpan(2), payment) is { } template
            )
            {
                return template;
            }
        }
        return null;
    }

    private static LndKvPaymentTemplate? Parse(ReadOnlySpan<byte> hash, BoltBucket payment)
    {
        if (
            payment.Get(LndKvPayments.CreationKey) is not { Length: >= 52 } creation
            || !creation.AsSpan(0, 32).SequenceEqual(hash)
            || payment.Get("payment-fail-info"u8) is not null
            || payment.Entries.Any(e => e.Bucket is not null && !e.Key.AsSpan().SequenceEqual(LndKvPayments.HtlcsKey))
            || payment.Bucket(LndKvPayments.HtlcsKey) is not { } htlcs
        )
        {
            return null;
        }
        var attempts = new List<Attempt>();
        foreach (var entry in htlcs.Entries.Where(e => e.Key is [(byte)'a', (byte)'i', ..] && e.Key.Length == 10))
        {
            var id = entry.Key.AsSpan(2);
            var info = entry.Value!;
            var at = info.AsSpan(RouteStart).IndexOf(hash);
            if (at < 0 || info.AsSpan(RouteStart + at + 32).IndexOf(hash) >= 0)
            {
                return null;
            }
            var (settle, fail) = (htlcs.Get([.. "si"u8, .. id]), htlcs.Get([.. "fi"u8, .. id]));
            if (settle is null && fail is null || settle is { Length: < 40 })
            {
                return null;
            }
            attempts.Add(new Attempt(info, RouteStart + at, settle, fail));
        }
        return attempts.Any(a => a.Settle is not null) ? new LndKvPaymentTemplate(creation, attempts) : null;
    }

    /// <summary>
    /// The payment's sub-bucket for a copy: <paramref name="hash"/> in its creation info and attempts, the settled
    /// attempts' preimage <paramref name="preimage"/>, its sequence number, attempt ids from <paramref name="firstId"/>,
    /// fresh session keys, and every time <paramref name="laterNs"/> nanoseconds after the template's.
    /// </summary>
    public BoltBucket Copy(byte[] hash, ReadOnlySpan<byte> preimage, ulong sequence, ulong firstId, long laterNs)
    {
        var bucket = new BoltBucket();
        var info = (byte[])creation.Clone();
        hash.CopyTo(info, 0);
        Later(info.AsSpan(40, 8), laterNs);
        bucket.Put(LndKvPayments.CreationKey, info);
        bucket.Put(LndKvPayments.SequenceKey, LndKvStore.BigEndian64(sequence));
        var htlcs = new BoltBucket();
        for (var k = 0; k < Attempts.Count; k++)
        {
            var attempt = Attempts[k];
            var id = LndKvStore.BigEndian64(firstId + (ulong)k);
            var copy = (byte[])attempt.Info.Clone();
            RandomNumberGenerator.Fill(copy.AsSpan(0, 32));
            Later(copy.AsSpan(attempt.HashAt - 8, 8), laterNs);
            hash.CopyTo(copy, attempt.HashAt);
            htlcs.Put([.. "ai"u8, .. id], copy);
            if (attempt.Settle is { } settle)
            {
                var settled = (byte[])settle.Clone();
                preimage.CopyTo(settled);
                Later(settled.AsSpan(32, 8), laterNs);
                htlcs.Put([.. "si"u8, .. id], settled);
            }
            if (attempt.Fail is { } fail)
            {
                htlcs.Put([.. "fi"u8, .. id], fail);
            }
        }
        bucket.PutBucket(LndKvPayments.HtlcsKey, htlcs);
        return bucket;
    }

    /// <summary>A time as LND keeps it (Unix nanoseconds, 8 bytes big-endian; 0 for none) made later.</summary>
    private static void Later(Span<byte> time, long ns)
    {
        var value = BinaryPrimitives.ReadInt64BigEndian(time);
        if (value != 0)
        {
            BinaryPrimitives.WriteInt64BigEndian(time, value + ns);
        }
    }
}
