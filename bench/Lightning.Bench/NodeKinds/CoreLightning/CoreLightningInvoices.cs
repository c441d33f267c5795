using System.Security.Cryptography;

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
    public string What =>
        "invoices: the node's own paid invoices (one per setup payment it received), copied with fresh payment hashes, preimages and labels, each the next pay index, into its stopped database";

    public HistorySeed Seed => HistorySeed.Receive;

    public async Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default)
    {
        await using var db = await LightningdDatabase.OpenAsync(nodeDirectory, ct);
        // Every column of the release's table, copied as it is but for those a copy must not share.
        var invoices = await LightningdTable.ReadAsync(db, "invoices", ct);
        if (invoices.Rows.Count == 0)
        {
            throw new InvalidOperationException("the node has no invoices to copy: it was paid no payment in setup");
        }
        var nextId = invoices.Max("id") + 1;
        var nextPayIndex = invoices.Max("pay_index") + 1;
        var nextUpdated = Math.Max(invoices.Max("updated_index"), nextId - 1) + 1;
        var toWrite = Math.Max(0, rows - invoices.Rows.Count);
        await LightningdDatabase.InsertAsync(
            db,
            [invoices],
            toWrite,
            (n, insert) =>
            {
                var invoice = (object?[])invoices.Rows[(int)(n % invoices.Rows.Count)].Clone();
                var id = nextId++;
                invoice[invoices.Column("id")] = id;
                var preimage = RandomNumberGenerator.GetBytes(32);
                invoice[invoices.Column("payment_key")] = preimage;
                invoice[invoices.Column("payment_hash")] = SHA256.HashData(preimage);
                invoice[invoices.Column("label")] = $"lnbench-history-{id}";
                invoices.Set(invoice, "pay_index", v => v is null ? null : nextPayIndex++);
                invoices.Set(invoice, "updated_index", _ => nextUpdated++);
                invoices.Set(invoice, "local_offer_id", _ => null);
                insert(invoices, invoice);
            },
            ct
        );
        // lightningd takes the next ids and pay index from these (lightningd/wait.c, wallet/invoices.c).
        await LightningdDatabase.SetVariableAsync(db, "next_pay_index", nextPayIndex, ct);
        await LightningdDatabase.SetVariableAsync(db, "last_invoices_created_index", nextId - 1, ct);
        await LightningdDatabase.SetVariableAsync(db, "last_invoices_updated_index", nextUpdated - 1, ct);
        return new HistoryWritten(toWrite, Listing(nextId - 1));
    }

    public HistoryCheck Listing(long lastIndex) => new("listinvoices", "invoices", lastIndex);

    public IHistorySnapshots Snapshots { get; } = new LightningdSnapshot(["invoices"]);
}
