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
        var columns = (await LightningdDatabase.ReadAsync(db, "PRAGMA table_info(invoices)", ct)).Select(c => (string)c[1]!).ToList();
        var invoices = await LightningdDatabase.ReadAsync(db, $"SELECT {string.Join(", ", columns)} FROM invoices ORDER BY id", ct);
        if (invoices.Count == 0)
        {
            throw new InvalidOperationException("the node has no invoices to copy: it was paid no payment in setup");
        }
        int Column(string name) => columns.IndexOf(name);
        long Max(string name) => Column(name) is var c and >= 0 ? invoices.Max(r => r[c] is long v ? v : 0) : 0;
        var nextId = Max("id") + 1;
        var nextPayIndex = Max("pay_index") + 1;
        var nextUpdated = Math.Max(Max("updated_index"), nextId - 1) + 1;
        var (payIndex, updated, offer) = (Column("pay_index"), Column("updated_index"), Column("local_offer_id"));
        var toWrite = Math.Max(0, rows - invoices.Count);
        await LightningdDatabase.InsertAsync(db, "invoices", columns, toWrite, (n, parameters) =>
        {
            var invoice = invoices[(int)(n % invoices.Count)];
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
            if (payIndex >= 0 && invoice[payIndex] is not null)
            {
                parameters[payIndex].Value = nextPayIndex++;
            }
            if (updated >= 0)
            {
                parameters[updated].Value = nextUpdated++;
            }
            if (offer >= 0)
            {
                parameters[offer].Value = DBNull.Value;
            }
        }, ct);
        // lightningd takes the next ids and pay index from these (lightningd/wait.c, wallet/invoices.c).
        await LightningdDatabase.SetVariableAsync(db, "next_pay_index", nextPayIndex, ct);
        await LightningdDatabase.SetVariableAsync(db, "last_invoices_created_index", nextId - 1, ct);
        await LightningdDatabase.SetVariableAsync(db, "last_invoices_updated_index", nextUpdated - 1, ct);
        return new HistoryWritten(toWrite, Listing(nextId - 1));
    }

    public HistoryCheck Listing(long lastIndex) => new("listinvoices", "invoices", lastIndex);

    public IHistorySnapshots Snapshots { get; } = new LightningdSnapshot(["invoices"]);

    public Task ConfirmAsync(ILightningNode node, HistoryWritten written, CancellationToken ct = default) => CoreLightningNode.ConfirmHistoryAsync(node, written, ct);
}
