using System.Globalization;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// A history written into LND's native SQL store on the topology's PostgreSQL server while the node is stopped: the
/// table's rows counted, its newest row a copy can be made of (<see cref="Templatable"/>) copied until the table holds
/// the rows asked for (<see cref="CopyRowsSql"/>, in one transaction as a bulk load: <see cref="PostgresBulkCopy"/>),
/// then the copied tables (<see cref="CopiedTables"/>) vacuumed and analysed, as the server's autovacuum has long done
/// on a node that made its rows over months: without it, autovacuum works in the measured window, on the server's CPU
/// (for LND's payments, the server's CPU per payment 27 → 64 ms). A node on its own bbolt files is given the same copies
/// in its key-value store instead (<see cref="LndKvInvoices"/>, <see cref="LndKvPayments"/>).
/// </summary>
internal abstract class LndSqlHistory : INodeHistory
{
    public abstract string What { get; }

    public abstract HistorySeed Seed { get; }

    /// <summary>
    /// What each setup payment a history copies is worth: LND's channels take no HTLC under 1 sat by default
    /// (--bitcoin.minhtlc), so a 1-msat payment finds no route.
    /// </summary>
    public const long SmallestPaymentMsat = 1000;

    public long SeedMsat => SmallestPaymentMsat;

    public virtual string? Refusal(IReadOnlyDictionary<string, string> versions) => null;

    /// <summary>The table whose id is the row's index in the node's listing.</summary>
    protected abstract string Table { get; }

    /// <summary>The SQL condition on a row of <see cref="Table"/> aliased <c>t</c> that a copy can be made of.</summary>
    protected abstract string Templatable { get; }

    /// <summary>What the table had none of to copy, and why ("no paid invoice to copy: the node was paid nothing…").</summary>
    protected abstract string NothingToCopy { get; }

    /// <summary>The copies' statements (the bulk load's transaction is around them).</summary>
    protected abstract string CopyRowsSql(long copies);

    /// <summary>Every table the copies are written into.</summary>
    protected abstract IReadOnlyList<string> CopiedTables { get; }

    /// <summary>The whole copy: one transaction, a bulk load of <see cref="CopiedTables"/>.</summary>
    private string CopySql(long copies) => PostgresBulkCopy.Sql(CopiedTables, CopyRowsSql(copies));

    public abstract HistoryCheck Listing(long lastIndex);

    /// <summary>A node on its own bbolt files: written into its channel.db.</summary>
    public abstract Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default);

    public async Task<HistoryWritten> WriteAsync(HistoryStore store, long rows, CancellationToken ct = default)
    {
        if (store.Database is not { } db)
        {
            return await WriteAsync(store.NodeDirectory, rows, ct);
        }
        var counts = (
            await db.QueryAsync(
                $"SELECT count(*), coalesce(max(id), 0), count(*) FILTER (WHERE {Templatable}) FROM {Table} t",
                ct
            )
        )
            .Trim()
            .Split('|')
            .Select(c => long.Parse(c, CultureInfo.InvariantCulture))
            .ToArray();
        var (existing, last, templates) = (counts[0], counts[1], counts[2]);
        if (templates == 0)
        {
            throw new InvalidOperationException($"{db.Name} has {NothingToCopy} before its history was written");
        }
        var toWrite = Math.Max(0, rows - existing);
        if (toWrite > 0)
        {
            await db.QueryAsync(CopySql(toWrite), ct);
            await db.QueryAsync(PostgresBulkCopy.VacuumSql(CopiedTables), ct);
        }
        return new HistoryWritten(toWrite, Listing(last + toWrite));
    }
}
