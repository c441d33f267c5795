using Lightning.Bench.Results;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Joins spans to payments. Exact joins: a plugin jsonrpc span whose id chain starts with lnbench:…#N belongs to
/// payment N; an xpay/payment span (Core Lightning after v26.06.x) by its payment_hash. Other spans (lightningd/jsonrpc,
/// db_*) carry no payment, so they count in the summary of the case's measured time window instead.
/// </summary>
public static class PaymentSpans
{
    /// <summary>Direct calls of the plugin serving the harness's request: lnbench:xpay#N / cln:xpay#M / cln-xpay:getroutes#K.</summary>
    public const int PluginCallDepth = 3;

    /// <summary>Payment ids by payment hash, the join key of xpay/payment spans.</summary>
    public static IReadOnlyDictionary<string, long> ByHash(IEnumerable<PaymentRecord> payments) =>
        payments.Where(p => p.PaymentHash is not null)
            .GroupBy(p => p.PaymentHash!).ToDictionary(g => g.Key, g => g.First().PaymentId);

    public static long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash)
    {
        if (span.Tags.TryGetValue("id", out var chain) && RpcIdChain.PaymentId(chain) is { } id)
        {
            return id;
        }
        return span.Tags.TryGetValue("payment_hash", out var hash) && paymentsByHash.TryGetValue(hash, out var byHash) ? byHash : null;
    }

    public static bool IsTopLevelStep(Span span) =>
        span.Name.StartsWith("xpay/", StringComparison.Ordinal)
        || (span.Name == "jsonrpc" && span.Tags.TryGetValue("id", out var chain) && RpcIdChain.Depth(chain) == PluginCallDepth);
}
