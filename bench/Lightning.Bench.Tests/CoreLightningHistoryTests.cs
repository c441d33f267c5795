using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Progress;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.Tests;

/// <summary>
/// A Core Lightning node's history written into a real SQLite database laid out as lightningd's (its channel_moves and
/// vars tables as v25.09 on creates them).
/// </summary>
[Trait("Category", "Unit")]
public class CoreLightningHistoryTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-history-").FullName;

    [Fact]
    public async Task The_nodes_own_moves_are_copied_to_the_size_asked_with_fresh_hashes_later_timestamps_and_its_counter_moved_past_them()
    {
        // What a node records of a forward (credit in, debit out), a payment it made and one it received.
        await CreateAsync(
            withMoves: true,
            moves:
            [
                (1, 1, 1000, 0, 100, true),
                (2, 2, 0, 1001, 101, true),
                (3, 2, 0, 1000, 102, true),
                (4, 1, 1000, 0, 103, false),
            ]
        );

        var written = (await new CoreLightningHistory().WriteAsync(directory, 1_000)).Rows;

        Assert.Equal(996, written);
        await using var db = Open();
        Assert.Equal(1_000L, Scalar(db, "SELECT count(*) FROM channel_moves"));
        Assert.Equal(1_000L, Scalar(db, "SELECT count(DISTINCT id) FROM channel_moves"));
        Assert.Equal(1_000L, Scalar(db, "SELECT max(id) FROM channel_moves"));
        // Timestamps keep rising after the node's own; every copy of a move with a payment hash has its own hash.
        Assert.Equal(1_000L, Scalar(db, "SELECT count(DISTINCT timestamp) FROM channel_moves"));
        Assert.Equal(103L + 996, Scalar(db, "SELECT max(timestamp) FROM channel_moves"));
        Assert.Equal(
            Scalar(db, "SELECT count(*) FROM channel_moves WHERE payment_hash IS NOT NULL"),
            Scalar(db, "SELECT count(DISTINCT payment_hash) FROM channel_moves")
        );
        Assert.Equal(250L, Scalar(db, "SELECT count(*) FROM channel_moves WHERE payment_hash IS NULL"));
        // The same accounts, credits and debits, in the same proportions.
        Assert.Equal(500L, Scalar(db, "SELECT count(*) FROM channel_moves WHERE account_channel_id = 1"));
        Assert.Equal(
            250L * 2001,
            Scalar(
                db,
                "SELECT sum(debit) FROM (SELECT credit_or_debit AS debit FROM channel_moves WHERE account_channel_id = 2)"
            )
        );
        // lightningd's next move takes id 1001, not one a copy holds.
        Assert.Equal(
            1_000L,
            Scalar(db, $"SELECT intval FROM vars WHERE name = '{CoreLightningHistory.CreatedIndexVariable}'")
        );
    }

    [Fact]
    public async Task A_release_without_channel_moves_is_refused_in_one_line_and_a_node_without_moves_says_so()
    {
        await CreateAsync(withMoves: false, moves: []);
        var refused = await Assert.ThrowsAsync<UsageException>(() =>
            new CoreLightningHistory().WriteAsync(directory, 100)
        );
        Assert.Contains("v25.09 or later", refused.Message);

        File.Delete(Path.Combine(directory, CoreLightningHistory.DatabasePath));
        await CreateAsync(withMoves: true, moves: []);
        var empty = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            new CoreLightningHistory().WriteAsync(directory, 100)
        );
        Assert.Contains("no channel moves", empty.Message);
    }

    [Fact]
    public void A_release_before_v25_09_is_refused_a_history_by_its_version_before_anything_starts()
    {
        var history = new CoreLightningHistory();
        Assert.Equal(
            "its Core Lightning (v24.08.2) keeps no channel moves in its database (they came in v25.09): give a history to v25.09 or later",
            history.Refusal(new Dictionary<string, string> { ["lightningd"] = "v24.08.2" })
        );
        Assert.Null(history.Refusal(new Dictionary<string, string> { ["lightningd"] = "v25.09.3" }));
        // A version it cannot read is taken as new: the database says at the first write.
        Assert.Null(history.Refusal(new Dictionary<string, string> { ["lightningd"] = "mybuild-dirty" }));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private SqliteConnection Open()
    {
        var db = new SqliteConnection(
            $"Data Source={Path.Combine(directory, CoreLightningHistory.DatabasePath)};Pooling=False"
        );
        db.Open();
        return db;
    }

    private static long Scalar(SqliteConnection db, string sql)
    {
        using var command = db.CreateCommand();
        command.CommandText = sql;
        return Convert.ToInt64(command.ExecuteScalar());
    }

    /// <summary>lightningd's tables as v25.09 creates them (wallet/db.c), with the moves given: (id, channel, credit, debit, timestamp, has a payment hash).</summary>
    private async Task CreateAsync(
        bool withMoves,
        IReadOnlyList<(long Id, long Channel, long Credit, long Debit, long Timestamp, bool Hash)> moves
    )
    {
        Directory.CreateDirectory(Path.Combine(directory, "regtest"));
        await using var db = Open();
        await using var create = db.CreateCommand();
        create.CommandText =
            "CREATE TABLE vars (name VARCHAR(32), val VARCHAR(255), intval INTEGER, PRIMARY KEY (name));"
            + (
                withMoves
                    ? "CREATE TABLE channel_moves (id BIGSERIAL, account_channel_id BIGINT, account_nonchannel_id BIGINT, tag_bitmap BIGINT NOT NULL, credit_or_debit BIGINT NOT NULL, timestamp BIGINT NOT NULL, payment_hash BLOB, payment_part_id BIGINT, payment_group_id BIGINT, fees BIGINT NOT NULL, PRIMARY KEY (id));"
                    : ""
            );
        await create.ExecuteNonQueryAsync();
        foreach (var move in moves)
        {
            await using var insert = db.CreateCommand();
            insert.CommandText = "INSERT INTO channel_moves VALUES ($id, $ch, NULL, 4, $cd, $ts, $hash, NULL, NULL, 0)";
            insert.Parameters.AddWithValue("$id", move.Id);
            insert.Parameters.AddWithValue("$ch", move.Channel);
            insert.Parameters.AddWithValue("$cd", move.Credit + move.Debit);
            insert.Parameters.AddWithValue("$ts", move.Timestamp);
            insert.Parameters.AddWithValue(
                "$hash",
                move.Hash ? System.Security.Cryptography.RandomNumberGenerator.GetBytes(32) : DBNull.Value
            );
            await insert.ExecuteNonQueryAsync();
        }
    }
}
