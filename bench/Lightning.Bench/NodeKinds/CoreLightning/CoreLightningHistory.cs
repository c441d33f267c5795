using System.Security.Cryptography;
using Lightning.Bench.Progress;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A Core Lightning node's history of channel moves (its <c>channel_moves</c> table, since v25.09, which its bookkeeper
/// digests): what the node itself recorded of a few real payments, copied again and again with fresh payment hashes and
/// later timestamps into its stopped database, as Core Lightning's own <c>tests/benchmark.py::test_generate_coinmoves</c>
/// makes its large nodes (PR 8677's measurement).
/// </summary>
internal sealed class CoreLightningHistory : INodeHistory
{
    /// <summary>The node's database under its folder (--lightning-dir, regtest).</summary>
    public const string DatabasePath = LightningdDatabase.Path;

    /// <summary>lightningd's counter of channel moves (the vars table): the id its next move takes is one more.</summary>
    public const string CreatedIndexVariable = "last_channelmoves_created_index";

    public string What =>
        "channel moves: the node's own rows of its channel_moves table (the moves of the setup's payments: paid, received, forwarded), copied with fresh payment hashes and later timestamps into its stopped database, as Core Lightning's tests/benchmark.py::test_generate_coinmoves does";

    /// <summary>The release whose lightningd first keeps its channel moves in its database.</summary>
    public static readonly ReleaseVersion ChannelMoves = new(25, 9);

    public string? Refusal(IReadOnlyDictionary<string, string> versions) =>
        ReleaseVersion.Parse(versions.GetValueOrDefault("lightningd")) is { } version && version < ChannelMoves
            ? NoChannelMoves($"its Core Lightning ({versions["lightningd"]})")
            : null;

    /// <summary>Why a build keeps no history to grow, in one line (<paramref name="build"/>: how the line names it).</summary>
    private static string NoChannelMoves(string build) =>
        $"{build} keeps no channel moves in its database (they came in {ChannelMoves}): give a history to {ChannelMoves} or later";

    public async Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default)
    {
        await using var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct);
        if (!await LightningdDatabase.TableExistsAsync(db, "channel_moves", ct))
        {
            throw new UsageException(NoChannelMoves("this Core Lightning build"));
        }
        var moves = await LightningdTable.ReadAsync(db, "channel_moves", ct);
        if (moves.Rows.Count == 0)
        {
            throw new InvalidOperationException(
                "the node recorded no channel moves to copy: it made, received and forwarded no payment"
            );
        }
        var (id, timestamp, hash) = (moves.Column("id"), moves.Column("timestamp"), moves.Column("payment_hash"));
        var nextId = (long)moves.Rows[^1][id]! + 1;
        var nextTimestamp = (long)moves.Rows[^1][timestamp]! + 1;
        var toWrite = Math.Max(0, rows - moves.Rows.Count);
        await LightningdDatabase.InsertAsync(
            db,
            [moves],
            toWrite,
            (n, insert) =>
            {
                var move = (object?[])moves.Rows[(int)(n % moves.Rows.Count)].Clone();
                move[id] = nextId++;
                move[timestamp] = nextTimestamp++;
                // Each copy of a move is another payment: its own hash.
                if (move[hash] is not null)
                {
                    move[hash] = RandomNumberGenerator.GetBytes(32);
                }
                insert(moves, move);
            },
            ct
        );
        // lightningd numbers its moves from this counter (lightningd/wait.c): moved past the copies, its next move
        // takes the next id instead of one a copy holds.
        await LightningdDatabase.SetVariableAsync(db, CreatedIndexVariable, nextId - 1, ct);
        return new HistoryWritten(toWrite, Listing(nextId - 1));
    }

    public HistoryCheck Listing(long lastIndex) => new("listchannelmoves", "channelmoves", lastIndex);

    public IHistorySnapshots Snapshots { get; } = new LightningdSnapshot(["channel_moves"]);
}
