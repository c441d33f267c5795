namespace Lightning.Bench.Tracing;

/// <summary>A finished span from one node (Zipkin v2 fields; times in µs since the Unix epoch).</summary>
public sealed record Span(
    string Node,
    string Id,
    string? ParentId,
    string TraceId,
    string Name,
    long TimestampMicros,
    long DurationMicros,
    IReadOnlyDictionary<string, string> Tags)
{
    public long EndMicros => TimestampMicros + DurationMicros;

    /// <summary>
    /// The span name refined by what it did: lightningd/jsonrpc by its method tag, a plugin's jsonrpc span by the last
    /// method of its request-id chain (lnbench:xpay#1/cln:xpay#2/cln-xpay:getroutes#3 → jsonrpc:getroutes).
    /// </summary>
    public string Operation => Name switch
    {
        "lightningd/jsonrpc" when Tags.TryGetValue("method", out var method) => $"lightningd/jsonrpc:{method}",
        "plugin/bitcoind" when Tags.TryGetValue("method", out var method) => $"plugin/bitcoind:{method}",
        "jsonrpc" when Tags.TryGetValue("id", out var id) && RpcIdChain.LastMethod(id) is { } method => $"jsonrpc:{method}",
        _ => Name,
    };
}
