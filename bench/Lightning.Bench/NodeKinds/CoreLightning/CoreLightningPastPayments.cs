using System.Security.Cryptography;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A Core Lightning node's history of past payments it made or forwards it routed, with everything each leaves in its
/// database: the <c>payments</c> row (a payment) or the <c>forwards</c> row (a forward), its HTLC rows
/// (<c>channel_htlcs</c>: the outgoing one, and for a forward the incoming one it came from) and its channel moves
/// (<c>channel_moves</c>, v25.09 on, which the bookkeeper digests). The node's own settled payments (or forwards) of
/// setup are copied again and again into its stopped database, each copy another payment: a fresh preimage and its
/// hash in every row of it, the next id of each table, and lightningd's counters moved past them.
/// </summary>
/// <remarks>
/// HTLC ids: a channel numbers the HTLCs each side offers 0, 1, 2 … on the wire, and the next real one must take the
/// next number on both ends, so a copy's HTLCs take ids from <see cref="CopiedHtlcIds"/> up (each copy its own), which
/// no channel of a benchmark reaches. A resolved HTLC is never loaded again by lightningd (only those not yet removed
/// are), so they are rows for its lookups (listhtlcs, listforwards, the payment's status) and nothing else.
/// </remarks>
internal sealed class CoreLightningPastPayments : INodeHistory
{
    /// <summary>Where the ids of copied HTLCs start on their channels: far beyond any channel's own count.</summary>
    public const long CopiedHtlcIds = 1L << 40;

    /// <summary>How many HTLC rows one copy may have (a payment's parts, a forward's two).</summary>
    private const int HtlcsPerCopy = 16;

    private const int DirectionIncoming = 0;
    private const int DirectionOutgoing = 1;

    private readonly bool forwards;

    private CoreLightningPastPayments(bool forwards) => this.forwards = forwards;

    /// <summary>Payments the node made: its payments rows, their outgoing HTLCs and channel moves.</summary>
    public static CoreLightningPastPayments Payments { get; } = new(forwards: false);

    /// <summary>Forwards the node routed: its forwards rows, their incoming and outgoing HTLCs and channel moves.</summary>
    public static CoreLightningPastPayments Forwards { get; } = new(forwards: true);

    public string What =>
        forwards
            ? "forwards: the node's own settled forwards (a forwards row, its incoming and outgoing HTLC rows and, v25.09 on, its channel moves), copied with a fresh preimage and hash, the next ids and HTLC ids beyond its channels' own into its stopped database; a row is one forward"
            : "payments: the node's own completed payments (a payments row, its outgoing HTLC rows and, v25.09 on, its channel moves), copied with a fresh preimage and hash, the next ids and HTLC ids beyond its channels' own into its stopped database; a row is one payment";

    public HistorySeed Seed => forwards ? HistorySeed.Forward : HistorySeed.Pay;

    private string MainTable => forwards ? "forwards" : "payments";

    public async Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default)
    {
        await using var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct);
        var htlcs = await LightningdTable.ReadAsync(db, "channel_htlcs", ct);
        var moves = await LightningdDatabase.TableExistsAsync(db, "channel_moves", ct)
            ? await LightningdTable.ReadAsync(db, "channel_moves", ct)
            : null;
        var main = await LightningdTable.ReadAsync(db, MainTable, ct);
        var seeds = forwards ? await SeedForwardsAsync(db, main, htlcs, moves, ct) : SeedPayments(main, htlcs, moves);
        if (seeds.Count == 0)
        {
            throw new InvalidOperationException(
                forwards
                    ? "the node has no settled forward to copy: it routed no payment in setup"
                    : "the node has no completed payment to copy: it paid nothing in setup"
            );
        }
        var next = new Counters(
            Htlc: htlcs.Max("id") + 1,
            HtlcUpdated: Math.Max(
                htlcs.Max("updated_index"),
                await LightningdDatabase.VariableAsync(db, "last_htlcs_updated_index", ct) ?? 0
            ) + 1,
            Main: forwards
                ? await LightningdDatabase.ScalarAsync(db, "SELECT coalesce(max(rowid), 0) FROM forwards", ct) + 1
                : main.Max("id") + 1,
            MainUpdated: Math.Max(
                main.Max("updated_index"),
                await LightningdDatabase.VariableAsync(
                    db,
                    $"last_{(forwards ? "forwards" : "sendpays")}_updated_index",
                    ct
                ) ?? 0
            ) + 1,
            Move: moves?.Max("id") + 1 ?? 0
        );
        var toWrite = Math.Max(0, rows - seeds.Count);
        await LightningdDatabase.InsertAsync(
            db,
            [main, htlcs, .. moves is null ? Array.Empty<LightningdTable>() : [moves]],
            toWrite,
            (n, insert) =>
            {
                var seed = seeds[(int)(n % seeds.Count)];
                var preimage = RandomNumberGenerator.GetBytes(32);
                var hash = SHA256.HashData(preimage);
                // The copy's HTLCs first: a forward's outgoing HTLC names its incoming one (origin_htlc), the forwards row both.
                var newIds = new Dictionary<long, (long Id, long HtlcId)>();
                for (var k = 0; k < seed.Htlcs.Count; k++)
                {
                    var htlc = (object?[])seed.Htlcs[k].Clone();
                    var id = next.Htlc++;
                    newIds[(long)htlc[htlcs.Column("id")]!] = (id, CopiedHtlcIds + (n * HtlcsPerCopy) + k);
                    htlc[htlcs.Column("id")] = id;
                    htlc[htlcs.Column("channel_htlc_id")] = newIds[(long)seed.Htlcs[k][htlcs.Column("id")]!].HtlcId;
                    htlc[htlcs.Column("payment_hash")] = hash;
                    htlcs.Set(htlc, "payment_key", v => v is null ? null : preimage);
                    htlcs.Set(
                        htlc,
                        "origin_htlc",
                        v => v is long origin && newIds.TryGetValue(origin, out var copied) ? copied.Id : v
                    );
                    htlcs.Set(htlc, "updated_index", _ => next.HtlcUpdated++);
                    insert(htlcs, htlc);
                }
                var row = (object?[])seed.Row.Clone();
                if (forwards)
                {
                    row[main.Column("in_htlc_id")] = newIds[seed.Incoming!.Value].HtlcId;
                    row[main.Column("out_htlc_id")] = newIds[seed.Outgoing!.Value].HtlcId;
                }
                else
                {
                    row[main.Column("id")] = next.Main;
                    row[main.Column("payment_hash")] = hash;
                    main.Set(row, "payment_preimage", v => v is null ? null : preimage);
                }
                next.Main++;
                main.Set(row, "updated_index", _ => next.MainUpdated++);
                insert(main, row);
                foreach (var seedMove in seed.Moves)
                {
                    var move = (object?[])seedMove.Clone();
                    move[moves!.Column("id")] = next.Move++;
                    move[moves.Column("payment_hash")] = hash;
                    insert(moves, move);
                }
            },
            ct
        );
        // lightningd numbers each table's rows and updates from these counters (lightningd/wait.c): moved past the copies.
        await LightningdDatabase.SetVariableIfPresentAsync(db, "last_htlcs_created_index", next.Htlc - 1, ct);
        await LightningdDatabase.SetVariableIfPresentAsync(db, "last_htlcs_updated_index", next.HtlcUpdated - 1, ct);
        var counter = forwards ? "forwards" : "sendpays";
        await LightningdDatabase.SetVariableIfPresentAsync(db, $"last_{counter}_created_index", next.Main - 1, ct);
        await LightningdDatabase.SetVariableIfPresentAsync(
            db,
            $"last_{counter}_updated_index",
            next.MainUpdated - 1,
            ct
        );
        if (moves is not null)
        {
            await LightningdDatabase.SetVariableIfPresentAsync(
                db,
                CoreLightningHistory.CreatedIndexVariable,
                next.Move - 1,
                ct
            );
        }
        // The node is asked for the last copy by its own listing once it is back (a history it does not see is not measured).
        return new HistoryWritten(toWrite, Listing(next.Main - 1));
    }

    public HistoryCheck Listing(long lastIndex) =>
        forwards ? new("listforwards", "forwards", lastIndex) : new("listsendpays", "payments", lastIndex);

    public IHistorySnapshots Snapshots => forwards ? ForwardTables : PaymentTables;

    private static readonly LightningdSnapshot ForwardTables = new(["forwards", "channel_htlcs", "channel_moves"]);
    private static readonly LightningdSnapshot PaymentTables = new(["payments", "channel_htlcs", "channel_moves"]);

    /// <summary>The node's completed payments, each with its outgoing HTLCs and channel moves (by its payment hash).</summary>
    private static List<SeedCopy> SeedPayments(LightningdTable payments, LightningdTable htlcs, LightningdTable? moves)
    {
        var hash = payments.Column("payment_hash");
        return payments
            .Rows.Where(p => p[payments.Column("status")] is 1L) // PAYMENT_COMPLETE
            .Select(p => new SeedCopy(
                p,
                htlcs
                    .Rows.Where(h =>
                        h[htlcs.Column("direction")] is (long)DirectionOutgoing
                        && Same(h[htlcs.Column("payment_hash")], p[hash])
                    )
                    .ToList(),
                moves?.Rows.Where(m => Same(m[moves.Column("payment_hash")], p[hash])).ToList() ?? [],
                null,
                null
            ))
            .ToList();
    }

    /// <summary>The node's settled forwards, each with its incoming and outgoing HTLCs (by channel and HTLC id) and channel moves.</summary>
    private static async Task<List<SeedCopy>> SeedForwardsAsync(
        SqliteConnection db,
        LightningdTable forwardRows,
        LightningdTable htlcs,
        LightningdTable? moves,
        CancellationToken ct
    )
    {
        var channels = (
            await LightningdDatabase.ReadAsync(db, "SELECT scid, id FROM channels WHERE scid IS NOT NULL", ct)
        ).ToDictionary(c => (long)c[0]!, c => (long)c[1]!);
        object?[]? Htlc(object? scid, object? htlcId, int direction) =>
            scid is long s && channels.TryGetValue(s, out var channel)
                ? htlcs.Rows.FirstOrDefault(h =>
                    h[htlcs.Column("channel_id")] is long c
                    && c == channel
                    && Equals(h[htlcs.Column("channel_htlc_id")], htlcId)
                    && h[htlcs.Column("direction")] is long d
                    && d == direction
                )
                : null;
        var seeds = new List<SeedCopy>();
        foreach (var forward in forwardRows.Rows.Where(f => f[forwardRows.Column("state")] is 1L)) // FORWARD_SETTLED
        {
            var incoming = Htlc(
                forward[forwardRows.Column("in_channel_scid")],
                forward[forwardRows.Column("in_htlc_id")],
                DirectionIncoming
            );
            var outgoing = Htlc(
                forward[forwardRows.Column("out_channel_scid")],
                forward[forwardRows.Column("out_htlc_id")],
                DirectionOutgoing
            );
            if (incoming is null || outgoing is null)
            {
                continue;
            }
            var hash = incoming[htlcs.Column("payment_hash")];
            seeds.Add(
                new SeedCopy(
                    forward,
                    [incoming, outgoing],
                    moves?.Rows.Where(m => Same(m[moves.Column("payment_hash")], hash)).ToList() ?? [],
                    (long)incoming[htlcs.Column("id")]!,
                    (long)outgoing[htlcs.Column("id")]!
                )
            );
        }
        return seeds;
    }

    private static bool Same(object? a, object? b) => a is byte[] x && b is byte[] y && x.AsSpan().SequenceEqual(y);

    /// <summary>One settled payment or forward of the node's and every row it left.</summary>
    private sealed record SeedCopy(
        object?[] Row,
        List<object?[]> Htlcs,
        List<object?[]> Moves,
        long? Incoming,
        long? Outgoing
    );

    /// <summary>The next id of each table (and of its updates) a copy takes.</summary>
    private sealed record Counters(long Htlc, long HtlcUpdated, long Main, long MainUpdated, long Move)
    {
        public long Htlc { get; set; } = Htlc;
        public long HtlcUpdated { get; set; } = HtlcUpdated;
        public long Main { get; set; } = Main;
        public long MainUpdated { get; set; } = MainUpdated;
        public long Move { get; set; } = Move;
    }
}
