using Lightning.Bench.Tracing;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// Joins spans to payments. Exact joins: a plugin jsonrpc span whose id chain starts with lnbench:…#N belongs to
/// payment N; an xpay/payment span (Core Lightning after v26.06.x) by its payment_hash. Other spans (lightningd/jsonrpc,
/// db_*) carry no payment, so they count in the summary of the case's measured time window instead.
/// </summary>
public sealed class CoreLightningTraceJoin : ITraceJoin
{
    /// <summary>Direct calls of the plugin serving the harness's request: lnbench:xpay#N / cln:xpay#M / cln-xpay:getroutes#K.</summary>
    public const int PluginCallDepth = 3;

    public long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash)
    {
        if (span.Tags.TryGetValue("id", out var chain) && RpcIdChain.PaymentId(chain) is { } id)
        {
            return id;
        }
        return span.Tags.TryGetValue("payment_hash", out var hash) && paymentsByHash.TryGetValue(hash, out var byHash) ? byHash : null;
    }

    public bool IsTopLevelStep(Span span) =>
        span.Name.StartsWith("xpay/", StringComparison.Ordinal)
        || (span.Name == "jsonrpc" && span.Tags.TryGetValue("id", out var chain) && RpcIdChain.Depth(chain) == PluginCallDepth);
}
