using Microsoft.Data.Sqlite;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A stopped Core Lightning node's sqlite3 database, as its histories write it: opened from the node's folder, its own
/// rows read, copies inserted in large transactions, and lightningd's counters (its vars table) set past them.
/// </summary>
internal static class LightningdDatabase
{
    /// <summary>The node's database under its folder (--lightning-dir, regtest).</summary>
    public const string Path = "regtest/lightningd.sqlite3";

    private const int RowsPerTransaction = 100_000;

    public static async Task<SqliteConnection> OpenAsync(string nodeDirectory, CancellationToken ct)
    {
        var path = System.IO.Path.Combine(nodeDirectory, Path);
        if (!File.Exists(path))
        {
            throw new InvalidOperationException($"no database at {path}: is the node's --lightning-dir its folder?");
        }
        var db = new SqliteConnection(
            new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString()
        );
        await db.OpenAsync(ct);
        return db;
    }

    /// <summary>Every row a query returns, each column's value (null for NULL).</summary>
    public static async Task<List<object?[]>> ReadAsync(SqliteConnection db, string sql, CancellationToken ct)
    {
        var rows = new List<object?[]>();
        await using var read = db.CreateCommand();
        read.CommandText = sql;
        await using var reader = await read.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            var row = new object?[reader.FieldCount];
            for (var i = 0; i < row.Length; i++)
            {
                row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
            }
            rows.Add(row);
        }
        return rows;
    }

    /// <summary>
    /// Inserts <paramref name="count"/> copies, each any number of rows into <paramref name="tables"/>: <paramref name="fill"/>
    /// writes the n-th copy's rows through the writer it is given (a table and the row's values, in its columns' order).
    /// </summary>
    public static async Task InsertAsync(
        SqliteConnection db,
        IReadOnlyList<LightningdTable> tables,
        long count,
        Action<long, Action<LightningdTable, object?[]>> fill,
        CancellationToken ct
    )
    {
        for (var written = 0L; written < count; )
        {
            await using var transaction = (SqliteTransaction)await db.BeginTransactionAsync(ct);
            var inserts = new Dictionary<LightningdTable, (SqliteCommand Command, SqliteParameter[] Parameters)>();
            try
            {
                foreach (var table in tables)
                {
                    var insert = db.CreateCommand();
                    insert.Transaction = transaction;
                    insert.CommandText =
                        $"INSERT INTO {table.Name} ({string.Join(", ", table.Columns)}) VALUES ({string.Join(", ", table.Columns.Select((_, i) => $"$p{i}"))})";
                    var parameters = table
                        .Columns.Select(
                            (_, i) => insert.Parameters.Add(new SqliteParameter { ParameterName = $"$p{i}" })
                        )
                        .ToArray();
                    await insert.PrepareAsync(ct);
                    inserts[table] = (insert, parameters);
                }
                void Write(LightningdTable table, object?[] row)
                {
                    var (insert, parameters) = inserts[table];
                    for (var i = 0; i < row.Length; i++)
                    {
                        parameters[i].Value = row[i] ?? DBNull.Value;
                    }
                    insert.ExecuteNonQuery();
                }
                for (var inBatch = 0; inBatch < RowsPerTransaction && written < count; inBatch++, written++)
                {
                    ct.ThrowIfCancellationRequested();
                    fill(written, Write);
                }
                await transaction.CommitAsync(ct);
            }
            finally
            {
                foreach (var (insert, _) in inserts.Values)
                {
                    await insert.DisposeAsync();
                }
            }
        }
    }

    /// <summary>Whether the database (<paramref name="schema"/>: main, or one attached) has the table.</summary>
    public static async Task<bool> TableExistsAsync(
        SqliteConnection db,
        string table,
        CancellationToken ct,
        string schema = "main"
    ) =>
        await ScalarAsync(
            db,
            $"SELECT count(*) FROM {schema}.sqlite_master WHERE type = 'table' AND name = '{table}'",
            ct
        ) > 0;

    /// <summary>The integer a query returns (0 for NULL or none).</summary>
    public static async Task<long> ScalarAsync(SqliteConnection db, string sql, CancellationToken ct)
    {
        await using var command = db.CreateCommand();
        command.CommandText = sql;
        return await command.ExecuteScalarAsync(ct) is long value ? value : 0;
    }

    public static async Task ExecuteAsync(SqliteConnection db, string sql, CancellationToken ct)
    {
        await using var command = db.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>One of lightningd's counters (its vars table), or null when the release keeps none of that name.</summary>
    public static async Task<long?> VariableAsync(SqliteConnection db, string name, CancellationToken ct)
    {
        await using var command = db.CreateCommand();
        command.CommandText = "SELECT intval FROM vars WHERE name = $name";
        command.Parameters.AddWithValue("$name", name);
        return await command.ExecuteScalarAsync(ct) is long value ? value : null;
    }

    /// <summary>Sets one of lightningd's counters when its release keeps it (a counter it does not know is left out).</summary>
    public static async Task SetVariableIfPresentAsync(
        SqliteConnection db,
        string name,
        long value,
        CancellationToken ct
    )
    {
        if (await VariableAsync(db, name, ct) is not null)
        {
            await SetVariableAsync(db, name, value, ct);
        }
    }

    /// <summary>Sets one of lightningd's counters (its vars table), adding it when absent.</summary>
    public static async Task SetVariableAsync(SqliteConnection db, string name, long value, CancellationToken ct)
    {
        await using var command = db.CreateCommand();
        command.CommandText = "UPDATE vars SET intval = $value WHERE name = $name";
        command.Parameters.AddWithValue("$value", value);
        command.Parameters.AddWithValue("$name", name);
        if (await command.ExecuteNonQueryAsync(ct) == 0)
        {
            command.CommandText = "INSERT INTO vars (name, intval) VALUES ($name, $value)";
            await command.ExecuteNonQueryAsync(ct);
        }
    }
}

/// <summary>A table of lightningd's database as read: every column of the release's table, and its rows.</summary>
internal sealed class LightningdTable
{
    private readonly Dictionary<string, int> index;

    private LightningdTable(string name, IReadOnlyList<string> columns, List<object?[]> rows)
    {
        Name = name;
        Columns = columns;
        Rows = rows;
        index = columns.Select((c, i) => (c, i)).ToDictionary(p => p.c, p => p.i, StringComparer.OrdinalIgnoreCase);
    }

    public string Name { get; }

    public IReadOnlyList<string> Columns { get; }

    public List<object?[]> Rows { get; }

    /// <summary>Every column and row of <paramref name="name"/> (in id order when it has one).</summary>
    public static async Task<LightningdTable> ReadAsync(SqliteConnection db, string name, CancellationToken ct)
    {
        var columns = (await LightningdDatabase.ReadAsync(db, $"PRAGMA table_info({name})", ct))
            .Select(c => (string)c[1]!)
            .ToList();
        var order = columns.Contains("id", StringComparer.OrdinalIgnoreCase) ? " ORDER BY id" : "";
        return new LightningdTable(
            name,
            columns,
            await LightningdDatabase.ReadAsync(db, $"SELECT {string.Join(", ", columns)} FROM {name}{order}", ct)
        );
    }

    /// <summary>The position of a column the harness needs (a release without it cannot be given this history).</summary>
    public int Column(string name) =>
        index.TryGetValue(name, out var i)
            ? i
            : throw new InvalidOperationException(
                $"lightningd's {Name} table has no column {name}: this release's database is not the one this history knows"
            );

    /// <summary>Sets a column the release may lack (left out when it does) from its current value.</summary>
    public void Set(object?[] row, string column, Func<object?, object?> value)
    {
        if (index.TryGetValue(column, out var i))
        {
            row[i] = value(row[i]);
        }
    }

    /// <summary>The largest integer in a column (0 for none, or when the release lacks it).</summary>
    public long Max(string column) =>
        index.TryGetValue(column, out var i) ? Rows.Select(r => r[i] as long? ?? 0).DefaultIfEmpty(0).Max() : 0;
}
