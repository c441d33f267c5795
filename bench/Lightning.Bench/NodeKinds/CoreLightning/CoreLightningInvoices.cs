using System.Security.Cryptography;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A Core Lightning node's history of invoices (its <c>invoices</c> table): the invoices it was paid in setup, copied
/// again and again into its stopped database with fresh payment hashes, preimages and labels, each paid one taking the
/// next pay index, and lightningd's counters moved past them (<c>next_pay_index</c>, <c>last_invoices_created_index</c>,
/// <c>last_invoices_updated_index</c>): a payee that has been paid N times before, as Core Lightning issue 1506 (2018:
/// payments slowed as a payee's invoices accumulated) saw one.
/// </summary>
internal sealed class CoreLightningInvoices : INodeHistory
{
    private const int RowsPerTransaction = 100_000;

    public string What =>
        "invoices: the node's own paid invoices (one per setup payment it received), copied with fresh payment hashes, preimages and labels, each the next pay index, into its stopped database";

    public HistorySeed Seed => HistorySeed.Receive;

    public async Task<long> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default)
    {
        var path = Path.Combine(nodeDirectory, CoreLightningHistory.DatabasePath);
        if (!File.Exists(path))
        {
            throw new InvalidOperationException($"no database at {path}: is the node's --lightning-dir its folder?");
        }
        await using var db = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        await db.OpenAsync(ct);
        var columns = new List<string>();
        await using (var info = db.CreateCommand())
        {
            info.CommandText = "PRAGMA table_info(invoices)";
            await using var reader = await info.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct))
            {
                columns.Add(reader.GetString(1));
            }
        }
        var invoices = new List<object?[]>();
        await using (var read = db.CreateCommand())
        {
            read.CommandText = $"SELECT {string.Join(", ", columns)} FROM invoices ORDER BY id";
            await using var reader = await read.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct))
            {
                var row = new object?[columns.Count];
                for (var i = 0; i < row.Length; i++)
                {
                    row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
                }
                invoices.Add(row);
            }
        }
        if (invoices.Count == 0)
        {
            throw new InvalidOperationException("the node has no invoices to copy: it was paid no payment in setup");
        }
        int Column(string name) => columns.IndexOf(name);
        long Max(string name) => Column(name) is var c and >= 0 ? invoices.Max(r => r[c] is long v ? v : 0) : 0;
        var nextId = Max("id") + 1;
        var nextPayIndex = Max("pay_index") + 1;
        var nextUpdated = Math.Max(Max("updated_index"), nextId - 1) + 1;
        var written = 0L;
        var toWrite = rows - invoices.Count;
        while (written < toWrite)
        {
            await using var transaction = (SqliteTransaction)await db.BeginTransactionAsync(ct);
            await using var insert = db.CreateCommand();
            insert.Transaction = transaction;
            insert.CommandText = $"INSERT INTO invoices ({string.Join(", ", columns)}) VALUES ({string.Join(", ", columns.Select((_, i) => $"$p{i}"))})";
            var parameters = columns.Select((_, i) => insert.Parameters.Add(new SqliteParameter { ParameterName = $"$p{i}" })).ToArray();
            await insert.PrepareAsync(ct);
            for (var inBatch = 0; inBatch < RowsPerTransaction && written < toWrite; inBatch++, written++)
            {
                var invoice = invoices[(int)(written % invoices.Count)];
                for (var i = 0; i < columns.Count; i++)
                {
                    parameters[i].Value = invoice[i] ?? DBNull.Value;
                }
                var id = nextId++;
                parameters[Column("id")].Value = id;
                var preimage = RandomNumberGenerator.GetBytes(32);
                parameters[Column("payment_key")].Value = preimage;
                parameters[Column("payment_hash")].Value = SHA256.HashData(preimage);
                parameters[Column("label")].Value = $"lnbench-history-{id}";
                if (Column("pay_index") is var pay and >= 0 && invoice[pay] is not null)
                {
                    parameters[pay].Value = nextPayIndex++;
                }
                if (Column("updated_index") is var updated and >= 0)
                {
                    parameters[updated].Value = nextUpdated++;
                }
                if (Column("local_offer_id") is var offer and >= 0)
                {
                    parameters[offer].Value = DBNull.Value;
                }
                await insert.ExecuteNonQueryAsync(ct);
            }
            await transaction.CommitAsync(ct);
        }
        // lightningd takes the next ids and pay index from these (lightningd/wait.c, wallet/invoices.c).
        await SetVariableAsync(db, "next_pay_index", nextPayIndex, ct);
        await SetVariableAsync(db, "last_invoices_created_index", nextId - 1, ct);
        await SetVariableAsync(db, "last_invoices_updated_index", nextUpdated - 1, ct);
        return written;
    }

    private static async Task SetVariableAsync(SqliteConnection db, string name, long value, CancellationToken ct)
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
