namespace Lightning.Bench.Tracing;

/// <summary>
/// How a kind's spans read: what each one did, and how it joins to the harness's payments (what its trace source carries
/// of the payment tag). The span tables read through it; node kinds implement it (<see cref="NodeKinds.ITraceSource"/>,
/// <see cref="NodeKinds.TopologyTraceJoin"/>).
/// </summary>
internal interface ITraceJoin
{
    /// <summary>The span's name refined by what it did, as the span tables group it (a span's name alone when it says enough).</summary>
    string OperationOf(Span span);

    /// <summary>The payment a span belongs to, or null for spans that carry none.</summary>
    long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash);

    /// <summary>Whether the span is a top-level step of a payment on the payer (the breakdown's rows).</summary>
    bool IsTopLevelStep(Span span);
}
