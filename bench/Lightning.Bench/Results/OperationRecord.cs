namespace Lightning.Bench.Results;

/// <summary>
/// One operation of a workload (a payment: invoice on the payee, then pay on the payer; an attempt that fails at the
/// payee; ...): which nodes it touched, when, what the node answered and why it failed. Times are UTC wall clock (spans
/// use it too).
/// </summary>
/// <param name="Invocation">The benchmark invocation (1-based) within the case; warmup invocations come first.</param>
/// <param name="Payer">The node the operation was asked of.</param>
/// <param name="Payee">The node it was aimed at.</param>
/// <param name="InvoiceDone">When the operation's preparation on the payee ended (its start when there was none): <see cref="PayMs"/> is what follows.</param>
/// <param name="Error">The node's reason for a failure, in its words, or null.</param>
/// <param name="PaymentId">Unique in the run; it is also the tag the node kind carries into its traces (Core Lightning: the JSON-RPC id suffix, lnbench:xpay#ID).</param>
internal sealed record OperationRecord(
    string Case,
    int Invocation,
    long PaymentId,
    string Payer,
    string Payee,
    DateTimeOffset Start,
    DateTimeOffset InvoiceDone,
    DateTimeOffset End,
    string? PaymentHash,
    OperationOutcome Outcome,
    string? Error
)
{
    private readonly bool? expected;

    public double LatencyMs => (End - Start).TotalMilliseconds;

    /// <summary>
    /// Whether the operation ended as its workload asks (a payment that succeeded; an attempt that failed with the
    /// payee's reason): figures count these; the others are errors. Unless the workload says, a success.
    /// </summary>
    public bool AsExpected
    {
        get => expected ?? Outcome == OperationOutcome.Succeeded;
        init => expected = value;
    }

    /// <summary>Start in µs since the Unix epoch, the unit spans use.</summary>
    public long StartUnixMicros => UnixMicros(Start);

    public long EndUnixMicros => UnixMicros(End);

    public double InvoiceMs => (InvoiceDone - Start).TotalMilliseconds;

    public double PayMs => (End - InvoiceDone).TotalMilliseconds;

    /// <summary>A payment's parts that reached the payee, as its payer reported them (null: not reported).</summary>
    public int? Parts { get; init; }

    /// <summary>A payment's attempts that failed on the way (a part retried elsewhere), as its payer reported them.</summary>
    public int? FailedParts { get; init; }

    /// <summary>The operation's amount where it varies between operations (a route query's), msat; null: the run's --amount-msat.</summary>
    public long? AmountMsat { get; init; }

    /// <summary>A route query's destination group: "top" (the graph's nodes with the most channels) or "sample" (the seeded others); null for other operations.</summary>
    public string? Destinations { get; init; }

    /// <summary>The fees of the routes a route query found, msat.</summary>
    public long? FeeMsat { get; init; }

    /// <summary>Set after the case ends, once it is known which invocations BenchmarkDotNet measured.</summary>
    public bool Measured { get; init; }

    /// <summary>Spans joined to this payment by JSON-RPC id or payment hash (0 without traces).</summary>
    public int SpanCount { get; init; }

    /// <summary>Its top-level steps on the payer, largest first: "injectpaymentonion=48.1;getroutes=4.2".</summary>
    public string SpanBreakdown { get; init; } = "";

    private static long UnixMicros(DateTimeOffset time) => (time - DateTimeOffset.UnixEpoch).Ticks / 10;
}
