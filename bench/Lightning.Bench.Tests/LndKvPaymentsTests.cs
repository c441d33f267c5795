using System.Buffers.Binary;
using System.Security.Cryptography;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.Tests;

/// <summary>
/// An LND payer's history of payments written into a bbolt channel.db laid out as LND's key-value payments
/// (<c>payments/db/kv_store.go</c>, <c>channeldb/payments.go</c> before v0.20): the newest succeeded payment, serialized
/// as LND does (creation info; attempts with their settle and fail info), copied into the payments bucket and the
/// payments index with fresh preimages, hashes and session keys, the next sequence numbers, later timestamps and attempt
/// ids from 2⁴⁰; the root bucket's sequence moved past them; the file written afresh and read back. A store with no
/// succeeded payment is refused in one line, and so is a release whose layout was not read.
/// </summary>
[Trait("Category", "Unit")]
public class LndKvPaymentsTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-kvpayments-").FullName;

    private const long Created = 1_790_000_000_000_000_000;

    [Fact]
    public async Task The_newest_succeeded_payment_is_copied_into_every_bucket_with_fresh_hashes_sequences_and_attempt_ids()
    {
        var path = ChannelDbs.Write(directory, Store());

        var (written, check) = await NodeKindCatalog
            .Default.Get(LndKind.KindName)
            .HistoryOf(HistoryKinds.Payments)!
            .WriteAsync(new HistoryStore(directory), 5_000);

        Assert.Equal(4_998, written);
        Assert.Equal(new HistoryCheck("ListPayments", "payments", 5_000), check);
        var root = BoltReader.Read(path).Root;
        var payments = root.Bucket("payments-root-bucket")!;
        var index = root.Bucket("payments-index-bucket")!;
        Assert.Equal(5_000, LndKvPayments.Count(root));
        Assert.Equal(5_000, index.Entries.Count);
        // LND starts its next sequence number from the root bucket's: past every copy.
        Assert.Equal(5_000UL, payments.Sequence);
        // The last copy: sequence 5,000, the index naming its hash, every time 4,998 ms after the template's.
        var entry = index.Get(BigEndian64(5_000))!;
        Assert.Equal([0, 32], entry[..2]);
        var hash = entry[2..];
        var copy = payments.Bucket(hash)!;
        Assert.Equal(BigEndian64(5_000), copy.Get("payment-sequence-key"u8));
        var creation = copy.Get("payment-creation-info"u8)!;
        Assert.Equal(hash, creation[..32]);
        Assert.Equal(Created + 4_998_000_000, BinaryPrimitives.ReadInt64BigEndian(creation.AsSpan(40)));
        Assert.Equal(Creation(Filled(0xa1))[48..], creation[48..]);
        // Its two attempts (the template's failed 3 and settled 4) at ids no live attempt takes: the 4,998th copy's.
        var htlcs = copy.Bucket("payment-htlcs-bucket")!;
        var (failed, settled) = (CopiedId(4_997 * 2), CopiedId(4_997 * 2 + 1));
        Assert.Equal(
            [
                [.. "ai"u8, .. failed],
                [.. "ai"u8, .. settled],
                [.. "fi"u8, .. failed],
                [.. "si"u8, .. settled],
            ],
            htlcs.Entries.Select(e => e.Key).ToArray()
        );
        var attempt = htlcs.Get([.. "ai"u8, .. settled])!;
        Assert.NotEqual(Filled(0x11), attempt[..32]);
        Assert.Equal(Attempt(Filled(0xa1))[32..(HashAt - 8)], attempt[32..(HashAt - 8)]);
        Assert.Equal(Created + 4_998_000_000, BinaryPrimitives.ReadInt64BigEndian(attempt.AsSpan(HashAt - 8)));
        Assert.Equal(hash, attempt[HashAt..(HashAt + 32)]);
        Assert.Equal(Tail, attempt[(HashAt + 32)..]);
        var settle = htlcs.Get([.. "si"u8, .. settled])!;
        Assert.Equal(hash, SHA256.HashData(settle.AsSpan(0, 32)));
        Assert.Equal(Created + 4_998_000_000, BinaryPrimitives.ReadInt64BigEndian(settle.AsSpan(32)));
        Assert.Equal("failed"u8.ToArray(), htlcs.Get([.. "fi"u8, .. failed]));
        // Every copy another payment: 5,000 hashes; 9,996 attempts copied, each with its own fresh session key (the 3
        // live attempts share the test's).
        var attempts = payments
            .Entries.Where(e => e.Key.Length == 32)
            .SelectMany(e => e.Bucket!.Bucket("payment-htlcs-bucket")?.Entries ?? [])
            .Where(e => e.Key[0] == (byte)'a')
            .ToList();
        Assert.Equal(3 + 4_998 * 2, attempts.Count);
        Assert.Equal(1 + 4_998 * 2, attempts.Select(a => Convert.ToHexString(a.Value!, 0, 32)).Distinct().Count());
        // The rest of the file as it was.
        Assert.Equal("kept"u8.ToArray(), root.Bucket("graph-meta")!.Get("x"u8));
    }

    [Fact]
    public void The_root_sequence_already_past_the_copies_is_kept_and_a_store_that_holds_the_rows_is_left_alone()
    {
        var root = Store();

        Assert.Equal((98, 100), LndKvPayments.AddCopies(root, 100));
        Assert.Equal(1_000UL, root.Bucket("payments-root-bucket")!.Sequence);
        Assert.Equal((0, 100), LndKvPayments.AddCopies(root, 50));
    }

    [Fact]
    public void A_store_with_no_succeeded_payment_is_refused_in_one_line()
    {
        // The first payment failed after all (its failure reason kept), the second is in flight.
        var unpaid = Store();
        var payments = unpaid.Bucket("payments-root-bucket")!;
        payments.Bucket(SHA256.HashData(Filled(0xa1)))!.Put("payment-fail-info"u8.ToArray(), [1]);

        var refused = Assert.Throws<InvalidOperationException>(() => LndKvPayments.AddCopies(unpaid, 10));

        Assert.Equal(
            "the node has no succeeded payment to copy in its channel.db (no succeeded payment): it paid nothing",
            refused.Message
        );
        Assert.Contains(
            "no payments bucket",
            Assert.Throws<InvalidOperationException>(() => LndKvPayments.AddCopies(new BoltBucket(), 10)).Message
        );
    }

    [Theory]
    [InlineData("0.18.5", true)]
    [InlineData("0.19.3", true)]
    [InlineData("0.20.3", true)]
    [InlineData("0.21.1", true)]
    [InlineData("0.22.0", false)]
    [InlineData("0.17.5", false)]
    public void Every_release_the_harness_runs_is_given_invoices_payments_and_forwards_on_bbolt_and_one_whose_layout_was_not_read_is_refused(
        string release,
        bool given
    )
    {
        INodeKind lnd = NodeKindCatalog.Default.Get(LndKind.KindName);
        var versions = new Dictionary<string, string>
        {
            ["lnd"] = $"lnd version {release}-beta commit=v{release}-beta",
        };
        var what =
            $"its LND (v{release}) keeps {{0}} in a key-value layout the harness has not read (it writes that of v0.18 to v0.21)";

        foreach (
            var (history, give) in new[]
            {
                (
                    HistoryKinds.Invoices,
                    ": give it --db BUILD:postgres, or a history of invoices to one of those releases"
                ),
                (HistoryKinds.Payments, ": give a history of payments to one of those releases"),
                (HistoryKinds.Forwards, ": give a history of forwards to one of those releases"),
            }
        )
        {
            Assert.True(lnd.Offers.Contains(KnownCapabilities.HistoryOf(history)));
            Assert.Equal(
                given ? null : string.Format(System.Globalization.CultureInfo.InvariantCulture, what, history) + give,
                lnd.Lacks(KnownCapabilities.HistoryOf(history), versions)
            );
        }
    }

    /// <summary>
    /// A channel.db's root: payment 1 succeeded (hash of preimage 0xa1; attempt 3 failed, attempt 4 settled), payment 2
    /// in flight (hash of 0xb2; attempt 5 unresolved); the root sequence 1,000 (LND reserves them by the thousand).
    /// </summary>
    private static BoltBucket Store()
    {
        var root = new BoltBucket();
        var payments = new BoltBucket(1_000);
        var index = new BoltBucket();
        var (succeeded, inFlight) = (SHA256.HashData(Filled(0xa1)), SHA256.HashData(Filled(0xb2)));
        var done = Payment(Filled(0xa1), 1);
        var doneHtlcs = new BoltBucket();
        doneHtlcs.Put([.. "ai"u8, .. BigEndian64(3)], Attempt(Filled(0xa1)));
        doneHtlcs.Put([.. "fi"u8, .. BigEndian64(3)], "failed"u8.ToArray());
        doneHtlcs.Put([.. "ai"u8, .. BigEndian64(4)], Attempt(Filled(0xa1)));
        doneHtlcs.Put([.. "si"u8, .. BigEndian64(4)], [.. Filled(0xa1), .. BigEndian64((ulong)Created)]);
        done.PutBucket("payment-htlcs-bucket"u8.ToArray(), doneHtlcs);
        var pending = Payment(Filled(0xb2), 2);
        var pendingHtlcs = new BoltBucket();
        pendingHtlcs.Put([.. "ai"u8, .. BigEndian64(5)], Attempt(Filled(0xb2)));
        pending.PutBucket("payment-htlcs-bucket"u8.ToArray(), pendingHtlcs);
        payments.PutBucket(succeeded, done);
        payments.PutBucket(inFlight, pending);
        index.Put(BigEndian64(1), LndKvPayments.IndexEntry(succeeded));
        index.Put(BigEndian64(2), LndKvPayments.IndexEntry(inFlight));
        root.PutBucket("payments-root-bucket"u8.ToArray(), payments);
        root.PutBucket("payments-index-bucket"u8.ToArray(), index);
        var graph = new BoltBucket();
        graph.Put("x"u8.ToArray(), "kept"u8.ToArray());
        root.PutBucket("graph-meta"u8.ToArray(), graph);
        return root;
    }

    private static BoltBucket Payment(byte[] preimage, ulong sequence)
    {
        var payment = new BoltBucket();
        payment.Put("payment-sequence-key"u8.ToArray(), BigEndian64(sequence));
        payment.Put("payment-creation-info"u8.ToArray(), Creation(preimage));
        return payment;
    }

    /// <summary>Creation info as LND serializes it: the hash, the amount, the time, the payment request, TLV records.</summary>
    private static byte[] Creation(byte[] preimage) =>
        [
            .. SHA256.HashData(preimage),
            .. BigEndian64(1_000_000),
            .. BigEndian64((ulong)Created),
            .. LndKvStore.BigEndian32(6),
            .. "lnbcrt"u8,
            0x01,
            0x01,
            0x07,
        ];

    /// <summary>An attempt as LND serializes it: session key, route (time lock, amount, source, one hop), time, hash, TLV records.</summary>
    private static byte[] Attempt(byte[] preimage) =>
        [
            .. Filled(0x11),
            .. LndKvStore.BigEndian32(200),
            .. BigEndian64(1_000_000),
            .. Enumerable.Repeat((byte)0x02, 33),
            .. LndKvStore.BigEndian32(1),
            .. Enumerable.Repeat((byte)0x22, HopLength),
            .. BigEndian64((ulong)Created),
            .. SHA256.HashData(preimage),
            .. Tail,
        ];

    private const int HopLength = 60;
    private const int HashAt = 32 + 4 + 8 + 33 + 4 + HopLength + 8;
    private static readonly byte[] Tail = [0xfe, 0x00, 0x01, 0x00, 0x01, 0x03, 0x00, 0x03, 0xe8];

    private static byte[] CopiedId(long n) => BigEndian64((ulong)(LndPaymentsHistory.CopiedAttemptIndexes + n));

    private static byte[] Filled(byte b) => Enumerable.Repeat(b, 32).ToArray();

    private static byte[] BigEndian64(ulong value) => LndKvStore.BigEndian64(value);

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
