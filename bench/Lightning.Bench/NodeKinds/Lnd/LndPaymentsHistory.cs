namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// An LND payer's history of succeeded payments in its native SQL store on the topology's PostgreSQL server (payments
/// in SQL tables from v0.21 with <c>--db.use-native-sql</c>): its newest succeeded payment copied again and again, in
/// one transaction while the node is stopped, with every row LND's ListPayments reads for it (the payment, its intent
/// and first-hop custom records; its HTLC attempts with their resolutions and first-hop custom records; each attempt's
/// route hops with their MPP, AMP, blinded and custom records), each copy with a fresh preimage and its hash (the
/// payment identifier and every attempt's hash), fresh session keys, the next ids and later timestamps. The table's id
/// is the payment's index in ListPayments. Releases v0.18 to v0.20 keep payments in a key-value store inside
/// PostgreSQL, and are refused in one line. On its own bbolt files (its default, any release v0.18 to v0.21) the same
/// copies go into its key-value store instead (<see cref="LndKvPayments"/>): its channel.db read whole, the copies added
/// to the payments bucket and the payments index, and the file written afresh, compact, in its place.
/// </summary>
/// <remarks>
/// Attempt indexes: LND numbers a payment's HTLC attempts from its switch's sequencer, kept in its key-value store,
/// which knows nothing of the SQL table, so the copies' attempts take indexes from <see cref="CopiedAttemptIndexes"/>
/// up, which the sequencer never reaches: its next attempt never takes a copy's. Every copy is succeeded (a settled
/// attempt, none unresolved): LND resumes only payments that are not, at its start, so it resumes none of them (but
/// its query for those it should walks the copies: what LND issue 9729 saw). payment_duplicates (records of old KV
/// duplicates) is not copied: no listing reads it.
/// </remarks>
internal sealed class LndPaymentsHistory : LndSqlHistory
{
    /// <summary>Where the copies' attempt indexes start, far above any index LND's sequencer hands out in a run.</summary>
    public const long CopiedAttemptIndexes = 1L << 40;

    /// <summary>The first release whose <c>--db.use-native-sql</c> keeps payments in SQL tables.</summary>
    public static readonly LndRelease NativeSqlPayments = new(0, 21, 0);

    public override string What =>
        "payments: the payer's newest succeeded payment, copied with fresh preimages, hashes and session keys, later ids, attempt indexes and timestamps while it is stopped: into LND's native SQL store on PostgreSQL (its row, intent, HTLC attempts with their resolutions, route hops and custom records), or into its bbolt channel.db (its bucket with creation info, sequence number and attempts with their settle info, and its payments index entry; the file written afresh)";

    public override HistorySeed Seed => HistorySeed.Pay;

    /// <summary>A release before v0.21 keeps its payments in a key-value store, even on PostgreSQL with native SQL.</summary>
    public override string? Refusal(IReadOnlyDictionary<string, string> versions) =>
        LndRelease.Parse(versions.GetValueOrDefault("lnd", "")) is { } release && release < NativeSqlPayments
            ? $"its LND (v{release}) keeps payments in a key-value store inside its database, not in SQL tables (native SQL payments came in v{NativeSqlPayments.Major}.{NativeSqlPayments.Minor}): give a history of payments to v{NativeSqlPayments.Major}.{NativeSqlPayments.Minor} or later"
            : null;

    /// <summary>Into the stopped node's bbolt channel.db (<see cref="LndKvPayments"/>), read and written afresh off the caller's thread.</summary>
    public override async Task<HistoryWritten> WriteAsync(
        string nodeDirectory,
        long rows,
        CancellationToken ct = default
    )
    {
        var (written, last) = await Task.Run(() => LndKvPayments.Write(nodeDirectory, rows), ct);
        return new HistoryWritten(written, Listing(last));
    }

    protected override string Table => "payments";

    protected override string Templatable => Succeeded("t");

    protected override string NothingToCopy => "no succeeded payment to copy: the node paid nothing";

    protected override IReadOnlyList<string> CopiedTables { get; } =
    [
        "payments",
        "payment_intents",
        "payment_first_hop_custom_records",
        "payment_htlc_attempts",
        "payment_htlc_attempt_resolutions",
        "payment_attempt_first_hop_custom_records",
        "payment_route_hops",
        "payment_route_hop_mpp",
        "payment_route_hop_amp",
        "payment_route_hop_blinded",
        "payment_hop_custom_records",
    ];

    public override HistoryCheck Listing(long lastIndex) => new("ListPayments", "payments", lastIndex);

    /// <summary>
    /// A payment LND calls succeeded (a settled attempt, none unresolved, no failure reason), paid with one hash (not
    /// AMP, whose parts each have their own): what a copy can be made of with one fresh preimage.
    /// </summary>
    private static string Succeeded(string p) =>
        $"""
            {p}.fail_reason IS NULL
                AND EXISTS (SELECT 1 FROM payment_htlc_attempts a JOIN payment_htlc_attempt_resolutions r
                    ON r.attempt_index = a.attempt_index WHERE a.payment_id = {p}.id AND r.resolution_type = 1)
                AND NOT EXISTS (SELECT 1 FROM payment_htlc_attempts a WHERE a.payment_id = {p}.id
                    AND (a.payment_hash <> {p}.payment_identifier OR NOT EXISTS
                      (SELECT 1 FROM payment_htlc_attempt_resolutions r WHERE r.attempt_index = a.attempt_index)))
            """;

    /// <summary>
    /// The template (the newest succeeded payment), its attempts and hops numbered, copies 1…n after the table's last
    /// id; each copy's preimage is sha256 of a per-run seed and its number, its hash sha256 of that.
    /// </summary>
    protected override string CopyRowsSql(long copies) =>
        string.Join('\n', TemplateSql(copies), PaymentRowsSql, AttemptRowsSql, HopRowsSql, SequencesSql);

    /// <summary>The template's rows in temporary tables, with the numbers its copies' rows start after.</summary>
    private static string TemplateSql(long copies) =>
        FormattableString.Invariant(
            $"""
            CREATE TEMP TABLE lnb_template ON COMMIT DROP AS
              SELECT * FROM payments p WHERE {Succeeded("p")} ORDER BY p.id DESC LIMIT 1;
            CREATE TEMP TABLE lnb_attempts ON COMMIT DROP AS
              SELECT a.*, row_number() OVER (ORDER BY a.attempt_index) - 1 AS k
              FROM payment_htlc_attempts a JOIN lnb_template t ON a.payment_id = t.id;
            CREATE TEMP TABLE lnb_hops ON COMMIT DROP AS
              SELECT h.*, row_number() OVER (ORDER BY h.id) AS k, a.k AS attempt_k
              FROM payment_route_hops h JOIN lnb_attempts a ON h.htlc_attempt_index = a.attempt_index;
            CREATE TEMP TABLE lnb_base ON COMMIT DROP AS
              SELECT (SELECT max(id) FROM payments) AS id,
                     greatest({CopiedAttemptIndexes}, (SELECT max(attempt_index) + 1 FROM payment_htlc_attempts)) AS attempt,
                     (SELECT count(*) FROM lnb_attempts) AS attempts,
                     (SELECT coalesce(max(id), 0) FROM payment_route_hops) AS hop,
                     (SELECT count(*) FROM lnb_hops) AS hops,
                     gen_random_uuid()::text AS seed;
            CREATE TEMP TABLE lnb_copies ON COMMIT DROP AS
              SELECT g AS n, sha256(convert_to(b.seed || ':' || g, 'UTF8')) AS preimage
              FROM lnb_base b, generate_series(1, {copies}) g;
            """
        );

    /// <summary>Each copy's payment row (its id the next after the table's last), its intent and its first-hop custom records.</summary>
    private const string PaymentRowsSql = """
        INSERT INTO payments (id, amount_msat, created_at, payment_identifier, fail_reason)
          SELECT b.id + c.n, t.amount_msat, t.created_at + c.n * interval '1 millisecond', sha256(c.preimage), NULL
          FROM lnb_copies c, lnb_base b, lnb_template t;
        INSERT INTO payment_intents (payment_id, intent_type, intent_payload)
          SELECT b.id + c.n, i.intent_type, i.intent_payload
          FROM lnb_copies c, lnb_base b, lnb_template t JOIN payment_intents i ON i.payment_id = t.id;
        INSERT INTO payment_first_hop_custom_records (payment_id, key, value)
          SELECT b.id + c.n, r.key, r.value
          FROM lnb_copies c, lnb_base b, lnb_template t JOIN payment_first_hop_custom_records r ON r.payment_id = t.id;
        """;

    /// <summary>Each copy's attempts (its hash, a fresh session key, an index from the copies' range), their resolutions (a settled one with the copy's preimage) and first-hop custom records.</summary>
    private const string AttemptRowsSql = """
        INSERT INTO payment_htlc_attempts (attempt_index, payment_id, session_key, attempt_time, payment_hash,
            first_hop_amount_msat, route_total_time_lock, route_total_amount, route_source_key)
          SELECT b.attempt + (c.n - 1) * b.attempts + a.k, b.id + c.n,
            sha256(convert_to(b.seed || ':session:' || c.n || ':' || a.k, 'UTF8')),
            a.attempt_time + c.n * interval '1 millisecond', sha256(c.preimage), a.first_hop_amount_msat,
            a.route_total_time_lock, a.route_total_amount, a.route_source_key
          FROM lnb_copies c, lnb_base b, lnb_attempts a;
        INSERT INTO payment_htlc_attempt_resolutions (attempt_index, resolution_time, resolution_type, settle_preimage,
            failure_source_index, htlc_fail_reason, failure_msg)
          SELECT b.attempt + (c.n - 1) * b.attempts + a.k, r.resolution_time + c.n * interval '1 millisecond',
            r.resolution_type, CASE WHEN r.resolution_type = 1 THEN c.preimage END, r.failure_source_index,
            r.htlc_fail_reason, r.failure_msg
          FROM lnb_copies c, lnb_base b, lnb_attempts a
          JOIN payment_htlc_attempt_resolutions r ON r.attempt_index = a.attempt_index;
        INSERT INTO payment_attempt_first_hop_custom_records (htlc_attempt_index, key, value)
          SELECT b.attempt + (c.n - 1) * b.attempts + a.k, r.key, r.value
          FROM lnb_copies c, lnb_base b, lnb_attempts a
          JOIN payment_attempt_first_hop_custom_records r ON r.htlc_attempt_index = a.attempt_index;
        """;

    /// <summary>Each copy's route hops (ids after the table's last, on the copy's attempts) and what hangs off each hop.</summary>
    private const string HopRowsSql = """
        INSERT INTO payment_route_hops (id, htlc_attempt_index, hop_index, pub_key, scid, outgoing_time_lock,
            amt_to_forward, meta_data)
          SELECT b.hop + (c.n - 1) * b.hops + h.k, b.attempt + (c.n - 1) * b.attempts + h.attempt_k, h.hop_index,
            h.pub_key, h.scid, h.outgoing_time_lock, h.amt_to_forward, h.meta_data
          FROM lnb_copies c, lnb_base b, lnb_hops h;
        INSERT INTO payment_route_hop_mpp (hop_id, payment_addr, total_msat)
          SELECT b.hop + (c.n - 1) * b.hops + h.k, m.payment_addr, m.total_msat
          FROM lnb_copies c, lnb_base b, lnb_hops h JOIN payment_route_hop_mpp m ON m.hop_id = h.id;
        INSERT INTO payment_route_hop_amp (hop_id, root_share, set_id, child_index)
          SELECT b.hop + (c.n - 1) * b.hops + h.k, m.root_share, m.set_id, m.child_index
          FROM lnb_copies c, lnb_base b, lnb_hops h JOIN payment_route_hop_amp m ON m.hop_id = h.id;
        INSERT INTO payment_route_hop_blinded (hop_id, encrypted_data, blinding_point, blinded_path_total_amt)
          SELECT b.hop + (c.n - 1) * b.hops + h.k, m.encrypted_data, m.blinding_point, m.blinded_path_total_amt
          FROM lnb_copies c, lnb_base b, lnb_hops h JOIN payment_route_hop_blinded m ON m.hop_id = h.id;
        INSERT INTO payment_hop_custom_records (hop_id, key, value)
          SELECT b.hop + (c.n - 1) * b.hops + h.k, r.key, r.value
          FROM lnb_copies c, lnb_base b, lnb_hops h JOIN payment_hop_custom_records r ON r.hop_id = h.id;
        """;

    /// <summary>The id sequences of the tables given ids here moved past the copies (the others' rows took theirs from them).</summary>
    private const string SequencesSql = """
        SELECT setval(pg_get_serial_sequence('payments', 'id'), (SELECT max(id) FROM payments));
        SELECT setval(pg_get_serial_sequence('payment_route_hops', 'id'), greatest((SELECT max(id) FROM payment_route_hops), 1));
        """;
}
