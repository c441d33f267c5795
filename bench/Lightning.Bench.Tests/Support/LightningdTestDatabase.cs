using System.Security.Cryptography;
using Lightning.Bench.NodeKinds.CoreLightning;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A stopped Core Lightning node's database as v26.06 declares the tables its histories write (keys and unique
/// constraints as the release has them), holding what the node records of one forward (alice → it → bob) and one
/// payment (it → bob), in a topology of given channel ids, short channel ids and node ids.
/// </summary>
internal static class LightningdTestDatabase
{
    public static readonly byte[] ForwardHash = SHA256.HashData([1]);
    public static readonly byte[] PaymentHash = SHA256.HashData([2]);

    /// <summary>Where the node's channels and peers are in one topology.</summary>
    public sealed record Topology(
        long BobChannel,
        long AliceChannel,
        long BobScid,
        long AliceScid,
        string Bob,
        string Alice
    )
    {
        public static readonly Topology First = new(
            1,
            2,
            112150186098688,
            112150186098690,
            "02" + new string('b', 64),
            "03" + new string('a', 64)
        );

        /// <summary>Another topology: the channels opened the other way round, other blocks, other keys.</summary>
        public static readonly Topology Second = new(
            2,
            1,
            112150186229761,
            112150186164224,
            "02" + new string('d', 64),
            "03" + new string('c', 64)
        );

        /// <summary>Node names by node id, as the harness knows them.</summary>
        public IReadOnlyDictionary<string, string> Names =>
            new Dictionary<string, string>
            {
                [Bob] = "bob",
                [Alice] = "alice",
                ["02" + new string('e', 64)] = "carol",
            };
    }

    /// <summary>v26.06's tables as it declares them, with a node's records of one forward and one payment.</summary>
    public static async Task CreateAsync(string directory, bool withMoves = true, Topology? topology = null)
    {
        var path = Path.Combine(directory, LightningdDatabase.Path);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var t = topology ?? Topology.First;
        await using var db = Open(directory);
        Execute(
            db,
            """
            CREATE TABLE vars (name VARCHAR(32), val VARCHAR(255), intval INTEGER, blobval BLOB, PRIMARY KEY (name));
            CREATE TABLE peers (id INTEGER, node_id BLOB UNIQUE, address TEXT, PRIMARY KEY (id));
            CREATE TABLE channels (id INTEGER, peer_id INTEGER, scid INTEGER, PRIMARY KEY (id));
            CREATE TABLE channel_htlcs (id INTEGER, channel_id INTEGER REFERENCES channels(id) ON DELETE CASCADE, channel_htlc_id INTEGER, direction INTEGER, origin_htlc INTEGER, msatoshi INTEGER, cltv_expiry INTEGER, payment_hash BLOB, payment_key BLOB, routing_onion BLOB, failuremsg BLOB, malformed_onion INTEGER, hstate INTEGER, shared_secret BLOB, received_time INTEGER, partid INTEGER, localfailmsg BLOB, we_filled INTEGER, groupid INTEGER, min_commit_num INTEGER default 0, max_commit_num INTEGER default NULL, fail_immediate INTEGER DEFAULT 0, fees_msat INTEGER DEFAULT 0, updated_index INTEGER DEFAULT 0, PRIMARY KEY (id), UNIQUE (channel_id, channel_htlc_id, direction));
            CREATE TABLE forwards (in_channel_scid INTEGER, in_htlc_id INTEGER, out_channel_scid INTEGER, out_htlc_id INTEGER, in_msatoshi INTEGER, out_msatoshi INTEGER, state INTEGER, received_time INTEGER, resolved_time INTEGER, failcode INTEGER, forward_style INTEGER, updated_index INTEGER DEFAULT 0, PRIMARY KEY(in_channel_scid, in_htlc_id)) STRICT;
            CREATE TABLE payments (id INTEGER, timestamp INTEGER, status INTEGER, payment_hash BLOB, destination BLOB, msatoshi INTEGER, payment_preimage BLOB, path_secrets BLOB, route_nodes BLOB, route_channels BLOB, failonionreply BLOB, faildestperm INTEGER, failindex INTEGER, failcode INTEGER, failnode BLOB, failupdate BLOB, msatoshi_sent INTEGER, faildetail TEXT, description TEXT, faildirection INTEGER, bolt11 TEXT, total_msat INTEGER, partid INTEGER, groupid INTEGER NOT NULL DEFAULT 0, local_offer_id BLOB DEFAULT NULL, paydescription TEXT, completed_at INTEGER DEFAULT NULL, failscid INTEGER, local_invreq_id BLOB DEFAULT NULL, updated_index INTEGER DEFAULT 0, PRIMARY KEY (id), UNIQUE (payment_hash, partid, groupid)) STRICT;
            INSERT INTO vars (name, intval) VALUES ('last_htlcs_created_index', 3), ('last_htlcs_updated_index', 34), ('last_forwards_created_index', 1), ('last_forwards_updated_index', 1),
                ('last_sendpays_created_index', 1), ('last_sendpays_updated_index', 1), ('last_channelmoves_created_index', 3);
            """
        );
        Execute(db, $"INSERT INTO peers VALUES (1, x'{t.Bob}', 'bob:9735'), (2, x'{t.Alice}', 'alice:9735')");
        Execute(
            db,
            $"INSERT INTO channels VALUES ({t.BobChannel}, 1, {t.BobScid}), ({t.AliceChannel}, 2, {t.AliceScid})"
        );
        // The forward: in on alice's channel (HTLC 0, with its preimage), out on bob's (HTLC 0, naming the incoming row).
        Insert(
            db,
            $"INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, origin_htlc, msatoshi, payment_hash, payment_key, hstate, received_time, min_commit_num, max_commit_num, updated_index) VALUES (1, {t.AliceChannel}, 0, 0, NULL, 2, $hash, $key, 19, 1795773665241924926, 0, 3, 17)",
            ("$hash", ForwardHash),
            ("$key", new byte[] { 1 })
        );
        Insert(
            db,
            $"INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, origin_htlc, msatoshi, payment_hash, hstate, min_commit_num, max_commit_num, updated_index) VALUES (2, {t.BobChannel}, 0, 1, 1, 1, $hash, 9, 0, 3, 13)",
            ("$hash", ForwardHash)
        );
        Execute(
            db,
            $"INSERT INTO forwards VALUES ({t.AliceScid}, 0, {t.BobScid}, 0, 2, 1, 1, 1795773665241924926, 1795773665298382961, NULL, 1, 1)"
        );
        // The payment: out on bob's channel (HTLC 1).
        Insert(
            db,
            $"INSERT INTO channel_htlcs (id, channel_id, channel_htlc_id, direction, msatoshi, payment_hash, hstate, partid, groupid, min_commit_num, max_commit_num, updated_index) VALUES (3, {t.BobChannel}, 1, 1, 1, $hash, 9, 1, 1198829657318751708, 2, 5, 26)",
            ("$hash", PaymentHash)
        );
        Insert(
            db,
            $"INSERT INTO payments (id, timestamp, status, payment_hash, destination, msatoshi, payment_preimage, msatoshi_sent, bolt11, total_msat, partid, groupid, completed_at, updated_index) VALUES (1, 1795773665, 1, $hash, x'{t.Bob}', 1, $key, 1, 'lnbcrt10p1…', 1, 1, 1198829657318751708, 1795773665, 1)",
            ("$hash", PaymentHash),
            ("$key", new byte[] { 2 })
        );
        if (withMoves)
        {
            Execute(
                db,
                "CREATE TABLE channel_moves (id INTEGER, account_channel_id INTEGER, account_nonchannel_id INTEGER, tag_bitmap INTEGER NOT NULL, credit_or_debit INTEGER NOT NULL, timestamp INTEGER NOT NULL, payment_hash BLOB, payment_part_id INTEGER, payment_group_id INTEGER, fees INTEGER NOT NULL, PRIMARY KEY (id)) STRICT"
            );
            Insert(
                db,
                $"INSERT INTO channel_moves VALUES (1, {t.BobChannel}, NULL, 16, -1, 1795773665, $hash, NULL, NULL, 1), (2, {t.AliceChannel}, NULL, 16, 2, 1795773665, $hash, NULL, NULL, 1)",
                ("$hash", ForwardHash)
            );
            Insert(
                db,
                $"INSERT INTO channel_moves VALUES (3, {t.BobChannel}, NULL, 8, -1, 1795773665, $hash, 1, 1198829657318751708, 0)",
                ("$hash", PaymentHash)
            );
        }
    }

    public static SqliteConnection Open(string directory)
    {
        var db = new SqliteConnection(
            new SqliteConnectionStringBuilder
            {
                DataSource = Path.Combine(directory, LightningdDatabase.Path),
                Pooling = false,
            }.ToString()
        );
        db.Open();
        return db;
    }

    public static void Execute(SqliteConnection db, string sql) => Insert(db, sql);

    public static void Insert(SqliteConnection db, string sql, params (string Name, byte[] Value)[] parameters)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }
        command.ExecuteNonQuery();
    }

    public static long Scalar(SqliteConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }
}
