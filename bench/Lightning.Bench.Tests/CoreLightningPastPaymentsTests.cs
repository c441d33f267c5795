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
    private const long ToBob = 112150186098688;
    private const long FromAlice = 112150186098690;

    private static readonly byte[] ForwardHash = SHA256.HashData([1]);
    private static readonly byte[] PaymentHash = SHA256.HashData([2]);

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
        Assert.Equal(1_000L, Scalar(db, """
            SELECT count(*) FROM forwards f
            JOIN channel_htlcs i ON i.channel_id = 2 AND i.channel_htlc_id = f.in_htlc_id AND i.direction = 0
            JOIN channel_htlcs o ON o.channel_id = 1 AND o.channel_htlc_id = f.out_htlc_id AND o.direction = 1
            WHERE f.in_channel_scid = 112150186098690 AND f.out_channel_scid = 112150186098688
              AND o.origin_htlc = i.id AND o.payment_hash = i.payment_hash AND f.state = 1
            """));
        Assert.Equal(1_000L, Scalar(db, "SELECT count(DISTINCT payment_hash) FROM channel_htlcs WHERE direction = 0"));
        // Two moves a forward (a credit on alice's channel, a debit on bob's), each with its forward's hash.
        Assert.Equal(2_000L, Scalar(db, "SELECT count(*) FROM channel_moves m JOIN channel_htlcs i ON i.payment_hash = m.payment_hash AND i.direction = 0"));
        // The copies' HTLC ids are beyond any channel's own count; the node's own stay as they were.
        Assert.Equal(0L, Scalar(db, $"SELECT count(*) FROM channel_htlcs WHERE id > 3 AND channel_htlc_id < {CoreLightningPastPayments.CopiedHtlcIds}"));
        Assert.Equal(1L, Scalar(db, "SELECT max(channel_htlc_id) FROM channel_htlcs WHERE id <= 3"));
        // The outgoing copies keep no preimage but the incoming ones do: the preimage of their own hash.
        var (key, hash) = Pair(db, "SELECT payment_key, payment_hash FROM channel_htlcs WHERE direction = 0 AND id = 500");
        Assert.Equal(SHA256.HashData(key), hash);
        // lightningd's counters are past the copies.
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_forwards_created_index'"));
        Assert.Equal(1_000L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_forwards_updated_index'"));
        Assert.Equal(2_001L, Scalar(db, "SELECT intval FROM vars WHERE name = 'last_channelmoves_created_index'"));
        Assert.Equal(Scalar(db, "SELECT max(updated_index) FROM channel_htlcs"), Scalar(db, "SELECT intval FROM vars WHERE name = 'last_htlcs_updated_index'"));
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
        Assert.Equal(1_000L, Scalar(db, "SELECT count(*) FROM payments p JOIN channel_htlcs h ON h.payment_hash = p.payment_hash AND h.direction = 1 AND h.channel_id = 1"));
        Assert.Equal(1_000L, Scalar(db, "SELECT count(*) FROM payments p JOIN channel_moves m ON m.payment_hash = p.payment_hash AND m.credit_or_debit = -1"));
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
        var none = await Assert.ThrowsAsync<InvalidOperationException>(() => CoreLightningPastPayments.Forwards.WriteAsync(directory, 100));
        Assert.Contains("no settled forward to copy", none.Message);
        none = await Assert.ThrowsAsync<InvalidOperationException>(() => CoreLightningPastPayments.Payments.WriteAsync(directory, 100));
        Assert.Contains("no completed payment to copy", none.Message);
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    /// <summary>v26.06's tables as it declares them, with a node's records of one forward and one payment.</summary>
    private async Task CreateAsync(bool withMoves = true)
    {
        var path = Path.Combine(directory, LightningdDatabase.Path);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        await using var db = Open();
        Execute(db, """
            CREATE TABLE vars (name VARCHAR(32), val VARCHAR(255), intval INTEGER, blobval BLOB, PRIMARY KEY (name));
            CREATE TABLE channels (id INTEGER, scid INTEGER, PRIMARY KEY (id));
            CREATE TABLE channel_htlcs (id INTEGER, channel_id INTEGER REFERENCES channels(id) ON DELETE CASCADE, channel_htlc_id INTEGER, direction INTEGER, origin_htlc INTEGER, msatoshi INTEGER, cltv_expiry INTEGER, payment_hash BLOB, payment_key BLOB, routing_onion BLOB, failuremsg BLOB, malformed_onion INTEGER, hstate INTEGER, shared_secret BLOB, received_time INTEGER, partid INTEGER, localfailmsg BLOB, we_filled INTEGER, groupid INTEGER, min_commit_num INTEGER default 0, max_commit_num INTEGER default NULL, fail_immediate INTEGER DEFAULT 0, fees_msat INTEGER DEFAULT 0, updated_index INTEGER DEFAULT 0, PRIMARY KEY (id), UNIQUE (channel_id, channel_htlc_id, direction));
            CREATE TABLE forwards (in_channel_scid INTEGER, in_htlc_id INTEGER, out_channel_scid INTEGER, out_htlc_id INTEGER, in_msatoshi INTEGER, out_msatoshi INTEGER, state INTEGER, received_time INTEGER, resolved_time INTEGER, failcode INTEGER, forward_style INTEGER, updated_index INTEGER DEFAULT 0, PRIMARY KEY(in_channel_scid, in_htlc_id)) STRICT;
            CREATE TABLE payments (id INTEGER, timestamp INTEGER, status INTEGER, payment_hash BLOB, destination BLOB, msatoshi INTEGER, payment_preimage BLOB, path_secrets BLOB, route_nodes BLOB, route_channels BLOB, failonionreply BLOB, faildestperm INTEGER, failindex INTEGER, failcode INTEGER, failnode BLOB, failupdate BLOB, msatoshi_sent INTEGER, faildetail TEXT, description TEXT, faildirection INTEGER, bolt11 TEXT, total_msat INTEGER, partid INTEGER, groupid INTEGER NOT NULL DEFAULT 0, local_offer_id BLOB DEFAULT NULL, paydescription TEXT, completed_at INTEGER DEFAULT NULL, failscid INTEGER, local_invreq_id BLOB DEFAULT NULL, updated_index INTEGER DEFAULT 0, PRIMARY KEY (id), UNIQUE (payment_hash, partid, groupid)) STRICT;
            INSERT INTO channels VALUES (1, 112150186098688), (2, 112150186098690);
            INSERT INTO vars (name, intval) VALUES ('last_htlcs_created_index', 3), ('last_htlcs_updated_index', 34), ('last_forwards_created_index', 1), ('last_forwards_updated_index', 1),
                ('last_sendpays_created_index', 1), ('last_sendpays_updated_index', 1), ('last_channelmoves_created_index', 4);
            """);
        // The forward: in on alice's channel (HTLC 0, with its preimage), out on bob's (HTLC 0, naming the incoming row).
        Insert(db, "INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, origin_htlc, msatoshi, payment_hash, payment_key, hstate, received_time, min_commit_num, max_commit_num, updated_index) VALUES (1, 2, 0, 0, NULL, 2, $hash, $key, 19, 1795773665241924926, 0, 3, 17)",
            ("$hash", ForwardHash), ("$key", new byte[] { 1 }));
        Insert(db, "INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, origin_htlc, msatoshi, payment_hash, hstate, min_commit_num, max_commit_num, updated_index) VALUES (2, 1, 0, 1, 1, 1, $hash, 9, 0, 3, 13)",
            ("$hash", ForwardHash));
        Execute(db, $"INSERT INTO forwards VALUES ({FromAlice}, 0, {ToBob}, 0, 2, 1, 1, 1795773665241924926, 1795773665298382961, NULL, 1, 1)");
        // The payment: out on bob's channel (HTLC 1).
        Insert(db, "INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, msatoshi, payment_hash, hstate, partid, groupid, min_commit_num, max_commit_num, updated_index) VALUES (3, 1, 1, 1, 1, $hash, 9, 1, 1198829657318751708, 2, 5, 26)",
            ("$hash", PaymentHash));
        Insert(db, "INSERT INTO payments (id, timestamp, status, payment_hash, destination, msatoshi, payment_preimage, msatoshi_sent, bolt11, total_msat, partid, groupid, completed_at, updated_index) VALUES (1, 1795773665, 1, $hash, x'02', 1, $key, 1, 'lnbcrt10p1…', 1, 1, 1198829657318751708, 1795773665, 1)",
            ("$hash", PaymentHash), ("$key", new byte[] { 2 }));
        if (withMoves)
        {
            Execute(db, "CREATE TABLE channel_moves (id INTEGER, account_channel_id INTEGER, account_nonchannel_id INTEGER, tag_bitmap INTEGER NOT NULL, credit_or_debit INTEGER NOT NULL, timestamp INTEGER NOT NULL, payment_hash BLOB, payment_part_id INTEGER, payment_group_id INTEGER, fees INTEGER NOT NULL, PRIMARY KEY (id)) STRICT");
            Insert(db, "INSERT INTO channel_moves VALUES (1, 1, NULL, 16, -1, 1795773665, $hash, NULL, NULL, 1), (2, 2, NULL, 16, 2, 1795773665, $hash, NULL, NULL, 1)", ("$hash", ForwardHash));
            Insert(db, "INSERT INTO channel_moves VALUES (3, 1, NULL, 8, -1, 1795773665, $hash, 1, 1198829657318751708, 0)", ("$hash", PaymentHash));
        }
    }

    private SqliteConnection Open()
    {
        var db = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = Path.Combine(directory, LightningdDatabase.Path), Pooling = false }.ToString());
        db.Open();
        return db;
    }

    private static void Execute(SqliteConnection db, string sql) => Insert(db, sql);

    private static void Insert(SqliteConnection db, string sql, params (string Name, byte[] Value)[] parameters)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }
        command.ExecuteNonQuery();
    }

    private static long Scalar(SqliteConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }

    private static (byte[] First, byte[] Second) Pair(SqliteConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        Assert.True(reader.Read(), sql);
        return ((byte[])reader[0], (byte[])reader[1]);
    }
}
