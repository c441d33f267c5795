using System.Security.Cryptography;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.Tests;

/// <summary>
/// Histories of past payments and forwards written into a real SQLite database laid out as v26.06's lightningd keeps
/// them (its tables' keys and unique constraints as the release declares them), seeded with what a node records of
/// one forward (alice → carol → bob) and one payment (carol → bob): each copy is every row of its payment again, with
/// one fresh preimage and hash, the next ids, HTLC ids beyond the channels' own, and lightningd's counters moved past.
/// </summary>
[Trait("Category", "Unit")]
public class CoreLightningPastPaymentsTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-past-").FullName;

    [Fact]
    public async Task Forwards_are_copied_with_both_their_htlcs_and_moves_each_copy_one_payment_hash_and_htlc_ids_beyond_the_channels()
    {
        await CreateAsync();

        var (written, listing) = await CoreLightningPastPayments.Forwards.WriteAsync(directory, 1_000);

        Assert.Equal(999, written);
        Assert.Equal(new HistoryCheck("listforwards", "forwards", 1_000), listing);
        await using var db = Open();
        Assert.Equal(1_000L, Scalar(db, "SELECT count(*) FROM forwards"));
        // Every forward's incoming HTLC is on alice's channel, its outgoing on bob's, named by its incoming one, one hash each.
        Assert.Equal(
            1_000L,
            Scalar(
                db,
                """
                SELECT count(*) FROM forwards f
                JOIN channel_htlcs i ON i.channel_id = 2 AND i.channel_htlc_id = f.in_htlc_id AND i.direction = 0
                JOIN channel_htlcs o ON o.channel_id = 1 AND o.channel_htlc_id = f.out_htlc_id AND o.direction = 1
                WHERE f.in_channel_scid = 112150186098690 AND f.out_channel_scid = 112150186098688
                  AND o.origin_htlc = i.id AND o.payment_hash = i.payment_hash AND f.state = 1
                """
            )
        );
        Assert.Equal(1_000L, Scalar(db, "SELECT count(DISTINCT payment_hash) FROM channel_htlcs WHERE direction = 0"));
        // Two moves a forward (a credit on alice's channel, a debit on bob's), each with its forward's hash.
        Assert.Equal(
            2_000L,
            Scalar(
                db,
                "SELECT count(*) FROM channel_moves m JOIN channel_htlcs i ON i.payment_hash = m.payment_hash AND i.direction = 0"
            )
        );
        // The copies' HTLC ids are beyond any channel's own count; the node's own stay as they were.
        Assert.Equal(
            0L,
            Scalar(
                db,
                $"SELECT count(*) FROM channel_htlcs WHERE id > 3 AND channel_htlc_id < {CoreLightningPastPayments.CopiedHtlcIds}"
            )
        );
        Assert.Equal(1L, Scalar(db, "SELECT max(channel_htlc_id) FROM channel_htlcs WHERE id <= 3"));
        // The outgoing copies keep no preimage but the incoming ones do: the preimage of their own hash.
        var (key, hash) = Pair(
            db,
            "SELECT payment_key, payment_hash FROM channel_htlcs WHERE direction = 0 AND id = 500"
        );
        Assert.Equal(SHA256.HashData(key), hash);
        // lightningd's counters are past the copies.
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_forwards_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_forwards_updated_index'"));
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_channelmoves_created_index'"));
        Assert.Equal(
            Scalar(db, "SELECT max(updated_index) FROM channel_htlcs"),
            Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_updated_index'")
        );
    }

    [Fact]
    public async Task Payments_are_copied_with_their_outgoing_htlc_and_move_each_copy_the_preimage_of_its_hash()
    {
        await CreateAsync();

        var (written, listing) = await CoreLightningPastPayments.Payments.WriteAsync(directory, 1_000);

        Assert.Equal(999, written);
        Assert.Equal(new HistoryCheck("listsendpays", "payments", 1_000), listing);
        await using var db = Open();
        Assert.Equal(1_000L, Scalar(db, "SELECT count(DISTINCT payment_hash) FROM payments WHERE status = 1"));
        Assert.Equal(
            1_000L,
            Scalar(
                db,
                "SELECT count(*) FROM payments p JOIN channel_htlcs h ON h.payment_hash = p.payment_hash AND h.direction = 1 AND h.channel_id = 1"
            )
        );
        Assert.Equal(
            1_000L,
            Scalar(
                db,
                "SELECT count(*) FROM payments p JOIN channel_moves m ON m.payment_hash = p.payment_hash AND m.credit_or_debit = -1"
            )
        );
        var (preimage, hash) = Pair(db, "SELECT payment_preimage, payment_hash FROM payments WHERE id = 700");
        Assert.Equal(SHA256.HashData(preimage), hash);
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_sendpays_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_sendpays_updated_index'"));
        // The forward is no payment: its rows are not copied.
        Assert.Equal(1L, Scalar(db, "SELECT count(*) FROM forwards"));
        Assert.Equal(1_002L, Scalar(db, "SELECT count(*) FROM channel_htlcs"));
    }

    [Fact]
    public async Task A_release_without_channel_moves_still_gets_payments_and_forwards_and_a_node_without_any_says_so()
    {
        await CreateAsync(withMoves: false);
        Assert.Equal(99, (await CoreLightningPastPayments.Forwards.WriteAsync(directory, 100)).Rows);
        Assert.Equal(99, (await CoreLightningPastPayments.Payments.WriteAsync(directory, 100)).Rows);

        await using (var db = Open())
        {
            Execute(db, "DELETE FROM payments; DELETE FROM forwards");
        }
        var none = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            CoreLightningPastPayments.Forwards.WriteAsync(directory, 100)
        );
        Assert.Contains("no settled forward to copy", none.Message);
        none = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            CoreLightningPastPayments.Payments.WriteAsync(directory, 100)
        );
        Assert.Contains("no completed payment to copy", none.Message);
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private Task CreateAsync(bool withMoves = true) => LightningdTestDatabase.CreateAsync(directory, withMoves);

    private SqliteConnection Open() => LightningdTestDatabase.Open(directory);

    private static void Execute(SqliteConnection db, string sql) => LightningdTestDatabase.Execute(db, sql);

    private static long Scalar(SqliteConnection db, string sql) => LightningdTestDatabase.Scalar(db, sql);

    private static (byte[] First, byte[] Second) Pair(SqliteConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        Assert.True(reader.Read(), sql);
        return ((byte[])reader[0], (byte[])reader[1]);
    }
}
