namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// An LND payee's history of paid invoices in its native SQL store on the topology's PostgreSQL server
/// (<c>--db.use-native-sql</c>, invoices in SQL tables from v0.18): its newest settled invoice copied, with its HTLCs and
/// features, again and again with fresh preimages, hashes and payment addresses, later add and settle indexes and
/// timestamps, in one statement while the node is stopped; the table's id (LND's add index) and the settle index moved
/// past the copies. On its own bbolt files (its default) the same copies go into its key-value store instead
/// (<see cref="LndKvInvoices"/>): its channel.db read whole, the copies added to the invoices and every index bucket,
/// and the file written afresh, compact, in its place.
/// </summary>
internal sealed class LndInvoicesHistory : LndSqlHistory
{
    /// <summary>LND's ContractSettled in the invoices table's state column.</summary>
    public const int Settled = 1;

    /// <summary>Where a copy's HTLC ids start on its channel, far above any id the live channel reaches in a run, so a copy never takes a live HTLC's (chan_id, htlc_id).</summary>
    public const long CopiedHtlcIds = 1L << 40;

    public override string What =>
        "invoices: the payee's newest paid invoice (with its HTLCs), copied with fresh preimages, hashes and payment addresses, later add and settle indexes and timestamps while it is stopped: into LND's native SQL store on PostgreSQL (its row, HTLCs and features), or into its bbolt channel.db (the invoice and its hash, payment address, add and settle index entries; the file written afresh)";

    public override HistorySeed Seed => HistorySeed.Receive;

    /// <summary>Into the stopped node's bbolt channel.db, read and written afresh off the caller's thread.</summary>
    public override async Task<HistoryWritten> WriteAsync(
        string nodeDirectory,
        long rows,
        CancellationToken ct = default
    )
    {
        var (written, last) = await Task.Run(() => LndKvInvoices.Write(nodeDirectory, rows), ct);
        return new HistoryWritten(written, Listing(last));
    }

    protected override string Table => "invoices";

    protected override string Templatable => $"t.state = {Settled}";

    protected override string NothingToCopy => "no paid invoice to copy: the node was paid nothing";

    protected override IReadOnlyList<string> CopiedTables { get; } = ["invoices", "invoice_htlcs", "invoice_features"];

    /// <summary>
    /// The template (newest settled invoice), its copies numbered 1…n after the table's last id and the settle
    /// sequence's value; each copy's preimage is sha256 of a per-run seed and its number, its hash sha256 of that.
    /// </summary>
    protected override string CopyRowsSql(long copies) =>
        FormattableString.Invariant(
            $"""
            CREATE TEMP TABLE lnb_template ON COMMIT DROP AS
              SELECT * FROM invoices WHERE state = {Settled} ORDER BY id DESC LIMIT 1;
            CREATE TEMP TABLE lnb_base ON COMMIT DROP AS
              SELECT (SELECT max(id) FROM invoices) AS id,
                     (SELECT current_value FROM invoice_sequences WHERE name = 'settle_index') AS settle,
                     (SELECT coalesce(max(id), 0) FROM invoice_htlcs) AS htlc,
                     (SELECT count(*) FROM invoice_htlcs h JOIN lnb_template t ON h.invoice_id = t.id) AS per,
                     gen_random_uuid()::text AS seed;
            CREATE TEMP TABLE lnb_copies ON COMMIT DROP AS
              SELECT g AS n, sha256(convert_to(b.seed || ':' || g, 'UTF8')) AS preimage FROM lnb_base b, generate_series(1, {copies}) g;
            INSERT INTO invoices (id, hash, preimage, settle_index, settled_at, memo, amount_msat, cltv_delta, expiry,
                payment_addr, payment_request, payment_request_hash, state, amount_paid_msat, is_amp, is_hodl, is_keysend,
                created_at)
              SELECT b.id + c.n, sha256(c.preimage), c.preimage, b.settle + c.n, t.settled_at + c.n * interval '1 millisecond',
                t.memo, t.amount_msat, t.cltv_delta, t.expiry, sha256(c.preimage || '\x01'::bytea), t.payment_request,
                sha256(c.preimage || '\x02'::bytea), t.state, t.amount_paid_msat, t.is_amp, t.is_hodl, t.is_keysend,
                t.created_at + c.n * interval '1 millisecond'
              FROM lnb_copies c, lnb_base b, lnb_template t;
            INSERT INTO invoice_features (feature, invoice_id)
              SELECT f.feature, b.id + c.n FROM lnb_copies c, lnb_base b, lnb_template t JOIN invoice_features f ON f.invoice_id = t.id;
            INSERT INTO invoice_htlcs (id, chan_id, htlc_id, amount_msat, total_mpp_msat, accept_height, accept_time,
                expiry_height, state, resolve_time, invoice_id)
              SELECT b.htlc + (c.n - 1) * b.per + row_number() OVER (PARTITION BY c.n ORDER BY h.id), h.chan_id,
                {CopiedHtlcIds} + (c.n - 1) * b.per + row_number() OVER (PARTITION BY c.n ORDER BY h.id), h.amount_msat,
                h.total_mpp_msat, h.accept_height, h.accept_time, h.expiry_height, h.state, h.resolve_time, b.id + c.n
              FROM lnb_copies c, lnb_base b, lnb_template t JOIN invoice_htlcs h ON h.invoice_id = t.id;
            UPDATE invoice_sequences SET current_value = current_value + {copies} WHERE name = 'settle_index';
            SELECT setval(pg_get_serial_sequence('invoices', 'id'), (SELECT max(id) FROM invoices));
            SELECT setval(pg_get_serial_sequence('invoice_htlcs', 'id'), greatest((SELECT max(id) FROM invoice_htlcs), 1));
            """
        );

    public override HistoryCheck Listing(long lastIndex) => new("ListInvoices", "invoices", lastIndex);
}
