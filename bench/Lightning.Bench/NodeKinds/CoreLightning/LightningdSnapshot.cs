using System.Globalization;
using Lightning.Bench.Processes;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A history's rows kept apart from the node that made them (a SQLite file of the rows each table gained, with the
/// identities they name: the node's channels by peer and the peers' node ids) and copied into another topology's node
/// of the same build: every id, update index and pay index moved past the node's own, every channel and node id
/// replaced by the one of the same peer in the new topology, in SQLite itself (<c>INSERT … SELECT</c>). A snapshot is
/// used only when its key (build image, history, size, format) is the one asked for, it says it is complete, its
/// tables hold the rows it counted and SQLite's own check passes; otherwise it is not used (and made again).
/// </summary>
internal sealed class LightningdSnapshot(IReadOnlyList<string> tables) : IHistorySnapshots
{
    /// <summary>The layout of a snapshot file: a file of another format is never read as this one.</summary>
    public const int Format = 1;

    /// <summary>Each table's counters in lightningd's vars: created index, updated index (null: none kept).</summary>
    private static readonly Dictionary<string, (string? Created, string? Updated)> Counters = new()
    {
        ["channel_moves"] = ("last_channelmoves_created_index", null),
        ["invoices"] = ("last_invoices_created_index", "last_invoices_updated_index"),
        ["payments"] = ("last_sendpays_created_index", "last_sendpays_updated_index"),
        ["channel_htlcs"] = ("last_htlcs_created_index", "last_htlcs_updated_index"),
        ["forwards"] = ("last_forwards_created_index", "last_forwards_updated_index"),
    };

    /// <summary>The tables the history writes, the first the one whose listing shows it.</summary>
    public IReadOnlyList<string> Tables { get; } = tables;

    /// <summary>Each table's last row before the history is written (its rowid): what the snapshot leaves out.</summary>
    public async Task<IReadOnlyDictionary<string, long>> MarkAsync(string nodeDirectory, CancellationToken ct)
    {
        await using var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct);
        var marks = new Dictionary<string, long>();
        foreach (var table in await PresentAsync(db, ct))
        {
            marks[table] = await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(max(rowid), 0) FROM {table}", ct);
        }
        return marks;
    }

    /// <summary>
    /// Keeps the rows written since <paramref name="marks"/> in <paramref name="file"/> (written beside it, then renamed:
    /// a file under that name is whole), with the key and the identities they name.
    /// </summary>
    /// <param name="names">The topology's node names by node id (lower-case hex).</param>
    public async Task SaveAsync(
        string nodeDirectory,
        IReadOnlyDictionary<string, long> marks,
        IReadOnlyDictionary<string, string> names,
        string file,
        string key,
        CancellationToken ct
    )
    {
        var partial = AtomicFile.Begin(file);
        try
        {
            await WriteAsync(nodeDirectory, marks, names, partial, key, ct);
            AtomicFile.Commit(partial, file);
        }
        catch
        {
            AtomicFile.Abandon(partial);
            throw;
        }
    }

    private async Task WriteAsync(
        string nodeDirectory,
        IReadOnlyDictionary<string, long> marks,
        IReadOnlyDictionary<string, string> names,
        string partial,
        string key,
        CancellationToken ct
    )
    {
        await using (var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct))
        {
            await LightningdDatabase.ExecuteAsync(
                db,
                $"ATTACH DATABASE '{partial.Replace("'", "''", StringComparison.Ordinal)}' AS snap",
                ct
            );
            await LightningdDatabase.ExecuteAsync(db, "BEGIN", ct);
            await LightningdDatabase.ExecuteAsync(
                db,
                "CREATE TABLE snap.lnbench_meta (name TEXT PRIMARY KEY, value TEXT)",
                ct
            );
            await LightningdDatabase.ExecuteAsync(
                db,
                "CREATE TABLE snap.lnbench_channels (id INTEGER, scid INTEGER, peer TEXT, ordinal INTEGER)",
                ct
            );
            await LightningdDatabase.ExecuteAsync(db, "CREATE TABLE snap.lnbench_nodes (name TEXT, node_id BLOB)", ct);
            var meta = new Dictionary<string, string>
            {
                ["key"] = key,
                ["format"] = Format.ToString(CultureInfo.InvariantCulture),
            };
            foreach (var table in marks.Keys)
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"CREATE TABLE snap.{table} AS SELECT * FROM main.{table} WHERE rowid > {marks[table]} ORDER BY rowid",
                    ct
                );
                meta[$"rows:{table}"] = (
                    await LightningdDatabase.ScalarAsync(db, $"SELECT count(*) FROM snap.{table}", ct)
                ).ToString(CultureInfo.InvariantCulture);
            }
            foreach (var (id, scid, peer, ordinal) in await ChannelsAsync(db, "main", names, ct))
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"INSERT INTO snap.lnbench_channels VALUES ({id}, {scid?.ToString(CultureInfo.InvariantCulture) ?? "NULL"}, '{peer}', {ordinal})",
                    ct
                );
            }
            foreach (var (nodeId, name) in names)
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"INSERT INTO snap.lnbench_nodes VALUES ('{name}', x'{nodeId}')",
                    ct
                );
            }
            foreach (var (name, value) in meta)
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"INSERT INTO snap.lnbench_meta VALUES ('{name}', '{value.Replace("'", "''", StringComparison.Ordinal)}')",
                    ct
                );
            }
            // Written last: a snapshot without it was cut short.
            await LightningdDatabase.ExecuteAsync(db, "INSERT INTO snap.lnbench_meta VALUES ('complete', '1')", ct);
            await LightningdDatabase.ExecuteAsync(db, "COMMIT", ct);
            await LightningdDatabase.ExecuteAsync(db, "DETACH DATABASE snap", ct);
        }
        SqliteConnection.ClearAllPools();
    }

    /// <summary>Why <paramref name="file"/> cannot be used for <paramref name="key"/> (one line), or null when it can.</summary>
    public async Task<string?> ProblemAsync(string file, string key, CancellationToken ct)
    {
        if (!File.Exists(file))
        {
            return LightningdSnapshotProblems.None;
        }
        try
        {
            await using var snap = new SqliteConnection(
                new SqliteConnectionStringBuilder
                {
                    DataSource = file,
                    Mode = SqliteOpenMode.ReadOnly,
                    Pooling = false,
                }.ToString()
            );
            await snap.OpenAsync(ct);
            var meta = (
                await LightningdDatabase.ReadAsync(snap, "SELECT name, value FROM lnbench_meta", ct)
            ).ToDictionary(r => (string)r[0]!, r => (string?)r[1]);
            if (meta.GetValueOrDefault("format") != Format.ToString(CultureInfo.InvariantCulture))
            {
                return $"of another format ({meta.GetValueOrDefault("format") ?? "none"}, this harness's {Format})";
            }
            if (meta.GetValueOrDefault("key") != key)
            {
                return $"made for {meta.GetValueOrDefault("key")}, not {key}";
            }
            if (meta.GetValueOrDefault("complete") != "1")
            {
                return "cut short (not marked complete)";
            }
            foreach (var (name, value) in meta.Where(m => m.Key.StartsWith("rows:", StringComparison.Ordinal)))
            {
                var table = name["rows:".Length..];
                var rows = await LightningdDatabase.ScalarAsync(snap, $"SELECT count(*) FROM {table}", ct);
                if (rows.ToString(CultureInfo.InvariantCulture) != value)
                {
                    return $"damaged: {table} holds {rows:N0} rows, not the {value} it counted";
                }
            }
            var check = (await LightningdDatabase.ReadAsync(snap, "PRAGMA quick_check", ct))
                .Select(r => r[0] as string)
                .ToList();
            return check is ["ok"] ? null : $"damaged: SQLite's check says {string.Join("; ", check.Take(3))}";
        }
        catch (SqliteException e)
        {
            return $"damaged: {e.Message.Split('\n')[0]}";
        }
    }

    /// <summary>
    /// Copies the snapshot's rows into the stopped node's database (after <see cref="ProblemAsync"/> found none), its
    /// channels and peers those of the same peers in this topology; returns how many rows of the first table it wrote
    /// and that table's last created index, or null when this topology's channels are not the snapshot's (made again).
    /// </summary>
    public async Task<(long Rows, long LastIndex)?> ApplyAsync(
        string nodeDirectory,
        string file,
        IReadOnlyDictionary<string, string> names,
        CancellationToken ct
    )
    {
        await using var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct);
        await LightningdDatabase.ExecuteAsync(
            db,
            $"ATTACH DATABASE '{file.Replace("'", "''", StringComparison.Ordinal)}' AS snap",
            ct
        );
        // This topology's channels and node ids of the same peers as the snapshot's (by name, and by order between a pair).
        var here = await ChannelsAsync(db, "main", names, ct);
        var there = (
            await LightningdDatabase.ReadAsync(db, "SELECT id, scid, peer, ordinal FROM snap.lnbench_channels", ct)
        )
            .Select(r => (Id: (long)r[0]!, Scid: r[1] as long?, Peer: (string)r[2]!, Ordinal: (long)r[3]!))
            .ToList();
        var channels = there
            .Select(t => (Old: t, New: here.FirstOrDefault(h => h.Peer == t.Peer && h.Ordinal == t.Ordinal)))
            .ToList();
        if (channels.Any(c => c.New.Peer is null))
        {
            return null;
        }
        await LightningdDatabase.ExecuteAsync(db, "BEGIN", ct);
        await LightningdDatabase.ExecuteAsync(
            db,
            "CREATE TEMP TABLE chanmap (old INTEGER PRIMARY KEY, new INTEGER)",
            ct
        );
        await LightningdDatabase.ExecuteAsync(
            db,
            "CREATE TEMP TABLE scidmap (old INTEGER PRIMARY KEY, new INTEGER)",
            ct
        );
        await LightningdDatabase.ExecuteAsync(db, "CREATE TEMP TABLE nodemap (old BLOB PRIMARY KEY, new BLOB)", ct);
        foreach (var (old, now) in channels)
        {
            await LightningdDatabase.ExecuteAsync(db, $"INSERT INTO chanmap VALUES ({old.Id}, {now.Id})", ct);
            if (old.Scid is { } scid && now.Scid is { } newScid)
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"INSERT OR REPLACE INTO scidmap VALUES ({scid}, {newScid})",
                    ct
                );
            }
        }
        foreach (
            var row in await LightningdDatabase.ReadAsync(db, "SELECT name, hex(node_id) FROM snap.lnbench_nodes", ct)
        )
        {
            if (names.FirstOrDefault(n => n.Value == (string)row[0]!).Key is { } nodeId)
            {
                await LightningdDatabase.ExecuteAsync(
                    db,
                    $"INSERT OR REPLACE INTO nodemap VALUES (x'{row[1]}', x'{nodeId}')",
                    ct
                );
            }
        }
        var written = new Dictionary<string, long>();
        // channel_htlcs first: origin_htlc of a copied HTLC names a copied one, moved by the same shift.
        var shifts = new Dictionary<string, long>();
        foreach (var table in Tables.OrderBy(t => t == "channel_htlcs" ? 0 : 1))
        {
            if (!await LightningdDatabase.TableExistsAsync(db, table, ct, schema: "snap"))
            {
                continue;
            }
            var columns = (await LightningdDatabase.ReadAsync(db, $"PRAGMA main.table_info({table})", ct))
                .Select(c => (string)c[1]!)
                .ToList();
            var (created, updated) = Counters.GetValueOrDefault(table);
            var baseId = Math.Max(
                await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(max(rowid), 0) FROM main.{table}", ct),
                await VariableAsync(db, created, ct)
            );
            // The copies' ids follow the node's own (a table without an id column, forwards, numbers its rows itself).
            var idShift = columns.Contains("id")
                ? baseId
                    + 1
                    - await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(min(id), 1) FROM snap.{table}", ct)
                : 0;
            shifts[table] = idShift;
            var expressions = new List<string>();
            foreach (var column in columns)
            {
                expressions.Add(
                    column switch
                    {
                        "id" => $"id + {idShift}",
                        "updated_index" =>
                            $"updated_index + {Math.Max(await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(max(updated_index), 0) FROM main.{table}", ct), await VariableAsync(db, updated, ct)) + 1 - await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(min(updated_index), 1) FROM snap.{table}", ct)}",
                        "pay_index" =>
                            $"CASE WHEN pay_index IS NULL THEN NULL ELSE pay_index + {Math.Max(await LightningdDatabase.ScalarAsync(db, "SELECT coalesce(max(pay_index), 0) FROM main.invoices", ct), await VariableAsync(db, "next_pay_index", ct) - 1) + 1 - await LightningdDatabase.ScalarAsync(db, "SELECT coalesce(min(pay_index), 1) FROM snap.invoices", ct)} END",
                        "origin_htlc" =>
                            $"CASE WHEN origin_htlc IS NULL THEN NULL ELSE origin_htlc + {shifts.GetValueOrDefault("channel_htlcs")} END",
                        "channel_id" or "account_channel_id" =>
                            $"CASE WHEN {column} IS NULL THEN NULL ELSE (SELECT new FROM temp.chanmap WHERE old = {column}) END",
                        "in_channel_scid" or "out_channel_scid" =>
                            $"coalesce((SELECT new FROM temp.scidmap WHERE old = {column}), {column})",
                        "destination" =>
                            "coalesce((SELECT new FROM temp.nodemap WHERE old = destination), destination)",
                        _ => column,
                    }
                );
            }
            var before = await LightningdDatabase.ScalarAsync(db, $"SELECT count(*) FROM main.{table}", ct);
            await LightningdDatabase.ExecuteAsync(
                db,
                $"INSERT INTO main.{table} ({string.Join(", ", columns)}) SELECT {string.Join(", ", expressions)} FROM snap.{table} ORDER BY rowid",
                ct
            );
            written[table] =
                await LightningdDatabase.ScalarAsync(db, $"SELECT count(*) FROM main.{table}", ct) - before;
            await SetCountersAsync(db, table, ct);
        }
        await LightningdDatabase.ExecuteAsync(db, "COMMIT", ct);
        await LightningdDatabase.ExecuteAsync(db, "DETACH DATABASE snap", ct);
        return (
            written.GetValueOrDefault(Tables[0]),
            await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(max(rowid), 0) FROM main.{Tables[0]}", ct)
        );
    }

    /// <summary>Moves lightningd's counters of a table past its rows (those the release keeps).</summary>
    private static async Task SetCountersAsync(SqliteConnection db, string table, CancellationToken ct)
    {
        var (created, updated) = Counters.GetValueOrDefault(table);
        if (created is not null)
        {
            await LightningdDatabase.SetVariableIfPresentAsync(
                db,
                created,
                await LightningdDatabase.ScalarAsync(db, $"SELECT coalesce(max(rowid), 0) FROM main.{table}", ct),
                ct
            );
        }
        if (updated is not null)
        {
            await LightningdDatabase.SetVariableIfPresentAsync(
                db,
                updated,
                await LightningdDatabase.ScalarAsync(
                    db,
                    $"SELECT coalesce(max(updated_index), 0) FROM main.{table}",
                    ct
                ),
                ct
            );
        }
        if (table == "invoices")
        {
            await LightningdDatabase.SetVariableIfPresentAsync(
                db,
                "next_pay_index",
                await LightningdDatabase.ScalarAsync(
                    db,
                    "SELECT coalesce(max(pay_index), 0) + 1 FROM main.invoices",
                    ct
                ),
                ct
            );
        }
    }

    /// <summary>The node's channels with their peer's name and their order among the channels with that peer.</summary>
    private static async Task<List<(long Id, long? Scid, string Peer, long Ordinal)>> ChannelsAsync(
        SqliteConnection db,
        string schema,
        IReadOnlyDictionary<string, string> names,
        CancellationToken ct
    )
    {
        var rows = await LightningdDatabase.ReadAsync(
            db,
            $"SELECT c.id, c.scid, hex(p.node_id) FROM {schema}.channels c JOIN {schema}.peers p ON c.peer_id = p.id ORDER BY c.id",
            ct
        );
        var seen = new Dictionary<string, long>();
        return rows.Select(r =>
            {
                var peer = names.GetValueOrDefault(((string)r[2]!).ToLowerInvariant(), (string)r[2]!);
                var ordinal = seen.GetValueOrDefault(peer);
                seen[peer] = ordinal + 1;
                return ((long)r[0]!, r[1] as long?, peer, ordinal);
            })
            .ToList();
    }

    private async Task<List<string>> PresentAsync(SqliteConnection db, CancellationToken ct)
    {
        var present = new List<string>();
        foreach (var table in Tables)
        {
            if (await LightningdDatabase.TableExistsAsync(db, table, ct))
            {
                present.Add(table);
            }
        }
        return present;
    }

    private static async Task<long> VariableAsync(SqliteConnection db, string? name, CancellationToken ct) =>
        name is null ? 0 : await LightningdDatabase.VariableAsync(db, name, ct) ?? 0;
}
