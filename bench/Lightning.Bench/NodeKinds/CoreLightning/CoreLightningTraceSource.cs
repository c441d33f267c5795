using Lightning.Bench.Tracing;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// Core Lightning's spans. Exact joins: a plugin jsonrpc span whose id chain starts with lnbench:…#N belongs to
/// payment N; an xpay/payment span (Core Lightning after v26.06.x) by its payment_hash. Other spans (lightningd/jsonrpc,
/// db_*) carry no payment, so they count in the summary of the case's measured time window instead.
/// </summary>
internal sealed class CoreLightningTraceSource : ITraceSource
{
    /// <summary>Direct calls of the plugin serving the harness's request: lnbench:xpay#N / cln:xpay#M / cln-xpay:getroutes#K.</summary>
    public const int PluginCallDepth = 3;

    /// <summary>CLN_DEV_TRACE_FILE's path in the node folder; Core Lightning appends ".PID" per process.</summary>
    public const string TraceFilePrefix = "trace-events";

    public string? EmittedSpansPrefix => TraceFilePrefix;

    /// <summary>
    /// lightningd/jsonrpc by its method tag, a plugin's jsonrpc span by the last method of its request-id chain
    /// (lnbench:xpay#1/cln:xpay#2/cln-xpay:getroutes#3 → jsonrpc:getroutes).
    /// </summary>
    public string OperationOf(Span span) =>
        span.Name switch
        {
            "lightningd/jsonrpc" when span.Tags.TryGetValue("method", out var method) => $"lightningd/jsonrpc:{method}",
            "plugin/bitcoind" when span.Tags.TryGetValue("method", out var method) => $"plugin/bitcoind:{method}",
            "jsonrpc" when span.Tags.TryGetValue("id", out var id) && RpcIdChain.LastMethod(id) is { } method =>
                $"jsonrpc:{method}",
            _ => span.Name,
        };

    public long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash)
    {
        if (span.Tags.TryGetValue("id", out var chain) && RpcIdChain.PaymentId(chain) is { } id)
        {
            return id;
        }
        return span.Tags.TryGetValue("payment_hash", out var hash) && paymentsByHash.TryGetValue(hash, out var byHash)
            ? byHash
            : null;
    }

    public bool IsTopLevelStep(Span span) =>
        span.Name.StartsWith("xpay/", StringComparison.Ordinal)
        || (
            span.Name == "jsonrpc"
            && span.Tags.TryGetValue("id", out var chain)
            && RpcIdChain.Depth(chain) == PluginCallDepth
        );

    public (long Emitted, long Arrived) CountEmitted(
        IEnumerable<string> lines,
        long stoppedUnixMicros,
        IReadOnlySet<string> receivedIds
    ) => CoreLightningTraceFile.Count(lines, stoppedUnixMicros, receivedIds);
}
