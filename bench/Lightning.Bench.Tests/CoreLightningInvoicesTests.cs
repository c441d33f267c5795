using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Microsoft.Data.Sqlite;

namespace Lightning.Bench.Tests;

/// <summary>
/// A payee's history of invoices written into a real SQLite database laid out as lightningd's invoices table (its
/// unique labels, hashes and pay indexes): the node's own paid invoice copied to the size asked, each copy another
/// payment, and lightningd's counters moved past them.
/// </summary>
[Trait("Category", "Unit")]
public class CoreLightningInvoicesTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-invoices-").FullName;

    [Fact]
    public async Task The_payees_paid_invoices_are_copied_with_fresh_hashes_labels_and_pay_indexes_and_its_counters_moved_past_them()
    {
        var path = Path.Combine(directory, CoreLightningHistory.DatabasePath);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        await using (var db = Open(path))
        {
            await ExecuteAsync(
                db,
                "CREATE TABLE vars (name VARCHAR(32), val VARCHAR(255), intval INTEGER, PRIMARY KEY (name));"
                    + "CREATE TABLE invoices (id BIGSERIAL, state INTEGER, msatoshi BIGINT, payment_hash BLOB, payment_key BLOB, label VARCHAR(255), expiry_time BIGINT,"
                    + " pay_index BIGINT, msatoshi_received BIGINT, paid_timestamp BIGINT, bolt11 TEXT, description TEXT, features BLOB, local_offer_id BLOB, updated_index BIGINT,"
                    + " PRIMARY KEY (id), UNIQUE (label), UNIQUE (payment_hash), UNIQUE (pay_index));"
                    + "INSERT INTO invoices VALUES (1, 1, 1, x'01', x'02', 'setup-1', 2000000000, 1, 1, 1700000000, 'lnbcrt1...', 'lnbench', x'', NULL, 2);"
                    + "INSERT INTO vars (name, intval) VALUES ('next_pay_index', 2), ('last_invoices_created_index', 1), ('last_invoices_updated_index', 2);"
            );
        }

        var (written, listing) = await new CoreLightningInvoices().WriteAsync(directory, 10_000);

        Assert.Equal(9_999, written);
        // The node is asked for the last invoice by its own listing once it is back.
        Assert.Equal(new HistoryCheck("listinvoices", "invoices", 10_000), listing);
        await using var check = Open(path);
        Assert.Equal(10_000L, await ScalarAsync(check, "SELECT count(DISTINCT payment_hash) FROM invoices"));
        Assert.Equal(10_000L, await ScalarAsync(check, "SELECT count(DISTINCT label) FROM invoices"));
        Assert.Equal(10_000L, await ScalarAsync(check, "SELECT max(pay_index) FROM invoices"));
        Assert.Equal(
            10_000L,
            await ScalarAsync(check, "SELECT count(*) FROM invoices WHERE state = 1 AND msatoshi_received = 1")
        );
        // lightningd's next invoice takes id 10,001, its next payment pay index 10,001, its next update 10,002.
        Assert.Equal(10_001L, await ScalarAsync(check, "SELECT intval FROM vars WHERE name = 'next_pay_index'"));
        Assert.Equal(
            10_000L,
            await ScalarAsync(check, "SELECT intval FROM vars WHERE name = 'last_invoices_created_index'")
        );
        Assert.Equal(
            10_001L,
            await ScalarAsync(check, "SELECT intval FROM vars WHERE name = 'last_invoices_updated_index'")
        );
        // Each copy's hash is its preimage's.
        var pair = await PairAsync(check, "SELECT payment_key, payment_hash FROM invoices WHERE id = 5000");
        Assert.Equal(System.Security.Cryptography.SHA256.HashData(pair.Key), pair.Hash);
    }

    [Fact]
    public async Task A_node_paid_nothing_says_so()
    {
        var path = Path.Combine(directory, CoreLightningHistory.DatabasePath);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        await using (var db = Open(path))
        {
            await ExecuteAsync(
                db,
                "CREATE TABLE vars (name VARCHAR(32), intval INTEGER); CREATE TABLE invoices (id BIGSERIAL, payment_hash BLOB, payment_key BLOB, label TEXT, PRIMARY KEY (id));"
            );
        }
        var empty = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            new CoreLightningInvoices().WriteAsync(directory, 100)
        );
        Assert.Contains("no invoices to copy", empty.Message);
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private static SqliteConnection Open(string path)
    {
        var db = new SqliteConnection(
            new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString()
        );
        db.Open();
        return db;
    }

    private static async Task ExecuteAsync(SqliteConnection db, string sql)
    {
        await using var command = db.CreateCommand();
        command.CommandText = sql;
        await command.ExecuteNonQueryAsync();
    }

    private static async Task<long> ScalarAsync(SqliteConnection db, string sql)
    {
        await using var command = db.CreateCommand();
        command.CommandText = sql;
        return (long)(await command.ExecuteScalarAsync())!;
    }

    private static async Task<(byte[] Key, byte[] Hash)> PairAsync(SqliteConnection db, string sql)
    {
        await using var command = db.CreateCommand();
        command.CommandText = sql;
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return ((byte[])reader[0], (byte[])reader[1]);
    }
}
