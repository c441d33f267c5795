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
        var db = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
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

    /// <summary>Inserts <paramref name="count"/> rows into <paramref name="table"/>, <paramref name="fill"/> giving the n-th its column values.</summary>
    public static async Task InsertAsync(SqliteConnection db, string table, IReadOnlyList<string> columns, long count, Action<long, SqliteParameter[]> fill, CancellationToken ct)
    {
        for (var written = 0L; written < count;)
        {
            await using var transaction = (SqliteTransaction)await db.BeginTransactionAsync(ct);
            await using var insert = db.CreateCommand();
            insert.Transaction = transaction;
            insert.CommandText = $"INSERT INTO {table} ({string.Join(", ", columns)}) VALUES ({string.Join(", ", columns.Select((_, i) => $"$p{i}"))})";
            var parameters = columns.Select((_, i) => insert.Parameters.Add(new SqliteParameter { ParameterName = $"$p{i}" })).ToArray();
            await insert.PrepareAsync(ct);
            for (var inBatch = 0; inBatch < RowsPerTransaction && written < count; inBatch++, written++)
            {
                fill(written, parameters);
                await insert.ExecuteNonQueryAsync(ct);
            }
            await transaction.CommitAsync(ct);
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
