using System.Buffers.Binary;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.NodeKinds.Lnd.Bolt;

namespace Lightning.Bench.Tests;

/// <summary>
/// An LND router's history of forwards written into a bbolt channel.db laid out as LND's forwarding log
/// (<c>channeldb/forwarding_log.go</c>): the newest forward copied 1 µs apart after it, its channels and amounts kept,
/// from v0.20 (48-byte events) HTLC ids of each copy's own from 2⁴⁰, before v0.20 (32 bytes) the event as it is; the
/// rest of the file kept; the file written afresh and read back. A store with no forward is refused in one line.
/// </summary>
[Trait("Category", "Unit")]
public class LndKvForwardsTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-kvforwards-").FullName;

    private const ulong Settled = 1_790_000_000_000_000_000;

    [Theory]
    [InlineData(48)]
    [InlineData(32)]
    public async Task The_newest_forward_is_copied_a_microsecond_apart_with_htlc_ids_of_its_own_where_the_release_keeps_them(
        int eventBytes
    )
    {
        var path = Write(Store(eventBytes));

        var (written, check) = await NodeKindCatalog
            .Default.Get(LndKind.KindName)
            .HistoryOf(HistoryKinds.Forwards)!
            .WriteAsync(new HistoryStore(directory), 1_000);

        Assert.Equal(998, written);
        Assert.Equal(new HistoryCheck("ForwardingHistory", "forwarding_events", 1_000), check);
        var root = BoltReader.Read(path).Root;
        var log = root.Bucket("circuit-fwd-log")!;
        Assert.Equal(1_000, LndKvForwards.Count(root));
        // The older forward and the newest as they were; then the copies, each 1 µs after the one before.
        Assert.Equal(Event(eventBytes, 0x01, 7), log.Get(Key(Settled - 5_000_000)));
        Assert.Equal(Event(eventBytes, 0x02, 9), log.Get(Key(Settled)));
        Assert.Equal(
            Enumerable.Range(0, 999).Select(i => Key(Settled + (ulong)i * 1_000)),
            log.Entries.Skip(1).Select(e => e.Key)
        );
        var last = log.Get(Key(Settled + 998_000))!;
        Assert.Equal(eventBytes, last.Length);
        // Channels and amounts are the newest forward's.
        Assert.Equal(Event(eventBytes, 0x02, 9)[..32], last[..32]);
        if (eventBytes == 48)
        {
            // The 998th copy's HTLC ids, in and out, far above any a live channel reaches.
            Assert.Equal((1UL << 40) + 998, BinaryPrimitives.ReadUInt64BigEndian(last.AsSpan(32)));
            Assert.Equal((1UL << 40) + 998, BinaryPrimitives.ReadUInt64BigEndian(last.AsSpan(40)));
        }
        else
        {
            Assert.Equal(Event(32, 0x02, 9), last);
        }
        // The rest of the file is kept.
        Assert.Equal("kept"u8.ToArray(), root.Bucket("other")!.Get("key"u8));
    }

    [Fact]
    public void A_store_that_holds_the_forwards_already_is_left_alone()
    {
        var path = Write(Store(48));
        var before = File.ReadAllBytes(path);

        Assert.Equal((0L, 2L), LndKvForwards.Write(directory, 2));
        Assert.Equal(before, File.ReadAllBytes(path));
    }

    [Fact]
    public void A_store_with_no_forward_is_refused_in_one_line()
    {
        var empty = new BoltBucket();
        empty.PutBucket("circuit-fwd-log"u8.ToArray(), new BoltBucket());

        var refused = Assert.Throws<InvalidOperationException>(() => LndKvForwards.AddCopies(empty, 10));
        Assert.Equal(
            "the node has no forward to copy in its channel.db (an empty forwarding log): it forwarded nothing, or its switch had not written it when it stopped",
            refused.Message
        );
        Assert.Contains(
            "(no forwarding log)",
            Assert.Throws<InvalidOperationException>(() => LndKvForwards.AddCopies(new BoltBucket(), 10)).Message
        );
    }

    private string Write(BoltBucket root) => ChannelDbs.Write(directory, root);

    /// <summary>A channel.db's root: two forwards 5 ms apart (the newest at <see cref="Settled"/>) and another bucket.</summary>
    private static BoltBucket Store(int eventBytes)
    {
        var root = new BoltBucket();
        var log = new BoltBucket();
        log.Put(Key(Settled - 5_000_000), Event(eventBytes, 0x01, 7));
        log.Put(Key(Settled), Event(eventBytes, 0x02, 9));
        root.PutBucket("circuit-fwd-log"u8.ToArray(), log);
        var other = new BoltBucket();
        other.Put("key"u8.ToArray(), "kept"u8.ToArray());
        root.PutBucket("other"u8.ToArray(), other);
        return root;
    }

    /// <summary>An event: incoming and outgoing channel, amounts in and out, and (48 bytes) the two HTLC ids.</summary>
    private static byte[] Event(int bytes, byte channel, ulong htlc)
    {
        var value = new byte[bytes];
        value.AsSpan(0, 16).Fill(channel);
        BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(16), 1_001_000);
        BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(24), 1_000_000);
        if (bytes == 48)
        {
            BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(32), htlc);
            BinaryPrimitives.WriteUInt64BigEndian(value.AsSpan(40), htlc + 1);
        }
        return value;
    }

    private static byte[] Key(ulong nanoseconds) => LndKvStore.BigEndian64(nanoseconds);

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
