using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using static Lightning.Bench.Tests.Support.LightningdTestDatabase;
using Place = Lightning.Bench.Tests.Support.LightningdTestDatabase.Topology;

namespace Lightning.Bench.Tests;

/// <summary>
/// A history's snapshot on real SQLite databases laid out as v26.06's: kept from one topology's node, copied into
/// another topology's node whose channels were opened the other way round, on other blocks, with other keys; and never
/// used when it is another key's, cut short or damaged.
/// </summary>
[Trait("Category", "Unit")]
public class LightningdSnapshotTests : IDisposable
{
    private const string Key = "forwards 1000 sha256:abc";

    private readonly string root = Directory.CreateTempSubdirectory("lnbench-snapshot-").FullName;

    private string First => Path.Combine(root, "first");
    private string Second => Path.Combine(root, "second");
    private string File => Path.Combine(root, "snapshots", "forwards-1000-abc" + Setup.HistorySnapshotStore.Extension);

    [Fact]
    public async Task Forwards_kept_from_one_topology_are_copied_into_another_with_its_own_channels_scids_and_ids_past_its_own()
    {
        var kept = (IHistorySnapshots)CoreLightningPastPayments.Forwards.Snapshots!;
        await MakeAsync(kept);
        await CreateAsync(Second, topology: Place.Second);

        Assert.Null(await kept.ProblemAsync(File, Key, default));
        var copied = await kept.ApplyAsync(Second, File, Place.Second.Names, default);

        Assert.Equal((999L, 1_000L), copied);
        using var db = Open(Second);
        var t = Place.Second;
        Assert.Equal(1_000L, Scalar(db, "SELECT count(*) FROM forwards"));
        // Every copy comes in on this topology's alice channel and leaves on its bob channel, by scid and by channel id.
        Assert.Equal(
            1_000L,
            Scalar(
                db,
                $"""
                SELECT count(*) FROM forwards f
                JOIN channel_htlcs i ON i.channel_id = {t.AliceChannel} AND i.channel_htlc_id = f.in_htlc_id AND i.direction = 0
                JOIN channel_htlcs o ON o.channel_id = {t.BobChannel} AND o.channel_htlc_id = f.out_htlc_id AND o.direction = 1
                WHERE f.in_channel_scid = {t.AliceScid} AND f.out_channel_scid = {t.BobScid} AND o.origin_htlc = i.id AND o.payment_hash = i.payment_hash
                """
            )
        );
        Assert.Equal(
            2_000L,
            Scalar(
                db,
                $"SELECT count(*) FROM channel_moves m JOIN channel_htlcs i ON i.payment_hash = m.payment_hash AND i.direction = 0 AND m.account_channel_id IN ({t.AliceChannel}, {t.BobChannel})"
            )
        );
        Assert.Equal(
            0L,
            Scalar(
                db,
                $"SELECT count(*) FROM channel_moves WHERE account_channel_id = {t.BobChannel} AND credit_or_debit > 0 AND tag_bitmap = 16"
            )
        );
        // Ids follow this node's own, and its counters are past them.
        Assert.Equal(2_001L, Scalar(db, "SELECT max(id) FROM channel_htlcs"));
        Assert.Equal(2_001L, Scalar(db, "SELECT count(DISTINCT id) FROM channel_htlcs"));
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_forwards_created_index'"));
        Assert.Equal(
            Scalar(db, "SELECT max(updated_index) FROM channel_htlcs"),
            Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_updated_index'")
        );
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_channelmoves_created_index'"));
    }

    [Fact]
    public async Task Payments_kept_are_copied_with_this_topologys_payee()
    {
        var kept = CoreLightningPastPayments.Payments.Snapshots!;
        await CreateAsync(First);
        var marks = await kept.MarkAsync(First, default);
        await CoreLightningPastPayments.Payments.WriteAsync(First, 500);
        await kept.SaveAsync(First, marks, Place.First.Names, File, Key, default);
        await CreateAsync(Second, topology: Place.Second);

        Assert.Equal((499L, 500L), await kept.ApplyAsync(Second, File, Place.Second.Names, default));
        using var db = Open(Second);
        Assert.Equal(500L, Scalar(db, $"SELECT count(*) FROM payments WHERE destination = x'{Place.Second.Bob}'"));
        Assert.Equal(
            500L,
            Scalar(
                db,
                $"SELECT count(*) FROM payments p JOIN channel_htlcs h ON h.payment_hash = p.payment_hash AND h.channel_id = {Place.Second.BobChannel}"
            )
        );
        Assert.Equal(500L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_sendpays_created_index'"));
    }

    [Fact]
    public async Task A_snapshot_of_another_key_cut_short_or_damaged_is_never_used_and_says_why()
    {
        var kept = CoreLightningPastPayments.Forwards.Snapshots!;
        Assert.Equal(LightningdSnapshotProblems.None, await kept.ProblemAsync(File, Key, default));
        await MakeAsync(kept);

        // Another build, size or history: its key is not this one.
        Assert.Contains(
            "made for forwards 1000 sha256:abc, not forwards 1000 sha256:def",
            await kept.ProblemAsync(File, "forwards 1000 sha256:def", default)
        );
        // Rows lost: the counts it kept say so.
        using (var snap = OpenFile(File))
        {
            Execute(snap, "DELETE FROM channel_htlcs WHERE rowid % 7 = 0");
        }
        Assert.Contains(
            "damaged: channel_htlcs holds 1,713 rows, not the 1998 it counted",
            await kept.ProblemAsync(File, Key, default)
        );
        // Cut short: never marked complete.
        await MakeAsync(kept);
        using (var snap = OpenFile(File))
        {
            Execute(snap, "DELETE FROM lnbench_meta WHERE name = 'complete'");
        }
        Assert.Equal("cut short (not marked complete)", await kept.ProblemAsync(File, Key, default));
        // Not a database at all.
        await System.IO.File.WriteAllTextAsync(File, "not sqlite");
        Assert.StartsWith("damaged: ", await kept.ProblemAsync(File, Key, default));
    }

    [Fact]
    public async Task A_topology_without_the_snapshots_peers_is_not_given_its_rows()
    {
        var kept = CoreLightningPastPayments.Forwards.Snapshots!;
        await MakeAsync(kept);
        await CreateAsync(Second, topology: Place.Second);
        // Names that do not know this topology's bob: his channel has no counterpart, and nothing is written.
        var strangers = Place.Second.Names.Where(n => n.Value != "bob").ToDictionary();
        Assert.Null(await kept.ApplyAsync(Second, File, strangers, default));
        using var db = Open(Second);
        Assert.Equal(1L, Scalar(db, "SELECT count(*) FROM forwards"));
    }

    [Fact]
    public void Snapshots_disk_use_is_counted_and_cleaning_removes_them_all()
    {
        var folder = Path.Combine(root, "kept");
        Directory.CreateDirectory(folder);
        System.IO.File.WriteAllBytes(
            Path.Combine(folder, "moves-10-aa" + Setup.HistorySnapshotStore.Extension),
            new byte[1000]
        );
        System.IO.File.WriteAllBytes(
            Path.Combine(folder, "moves-10-aa" + Setup.HistorySnapshotStore.Extension + ".0f.partial"),
            new byte[24]
        );
        System.IO.File.WriteAllText(Path.Combine(folder, "notes.txt"), "not a snapshot");

        Assert.Equal((2, 1024L), Setup.HistorySnapshotStore.DiskUse(folder));
        Assert.Equal((2, 1024L), Setup.HistorySnapshotStore.Clean(folder));
        Assert.Equal((0, 0L), Setup.HistorySnapshotStore.DiskUse(folder));
        Assert.True(System.IO.File.Exists(Path.Combine(folder, "notes.txt")));
    }

    public void Dispose() => Directory.Delete(root, recursive: true);

    /// <summary>The first topology's node writes 1,000 forwards, kept as the snapshot.</summary>
    private async Task MakeAsync(IHistorySnapshots kept)
    {
        if (Directory.Exists(First))
        {
            Directory.Delete(First, recursive: true);
        }
        await CreateAsync(First);
        var marks = await kept.MarkAsync(First, default);
        await CoreLightningPastPayments.Forwards.WriteAsync(First, 1_000);
        await kept.SaveAsync(First, marks, Place.First.Names, File, Key, default);
    }

    private static Microsoft.Data.Sqlite.SqliteConnection OpenFile(string path)
    {
        var db = new Microsoft.Data.Sqlite.SqliteConnection(
            new Microsoft.Data.Sqlite.SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString()
        );
        db.Open();
        return db;
    }
}
