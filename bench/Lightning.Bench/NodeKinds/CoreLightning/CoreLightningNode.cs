using System.Text.Json.Nodes;
using System.Text.Json;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A running Core Lightning node over its JSON-RPC socket. Payment calls carry ids that name the payment
/// (lnbench:invoice#ID, lnbench:xpay#ID): Core Lightning passes them down its id chains into every span, which is how
/// spans join to payments.
/// </summary>
public sealed class CoreLightningNode(string name, PeerAddress address, ClnRpcClient rpc, string nodeId, string version) : ILightningNode, IExternalChannelFunding
{
    private long nextSetupId;

    public string Name { get; } = name;

    public string NodeId { get; } = nodeId;

    public string Version { get; } = version;

    public PeerAddress Address { get; } = address;

    public async Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default)
    {
        var info = await CallAsync("getinfo", ct: ct);
        var warning = info.TryGetProperty("warning_bitcoind_sync", out var w) ? w.GetString()
            : info.TryGetProperty("warning_lightningd_sync", out var l) ? l.GetString() : null;
        return new NodeSyncState(info.GetProperty("blockheight").GetInt64(), warning);
    }

    public async Task<string> NewAddressAsync(CancellationToken ct = default) =>
        (await CallAsync("newaddr", new JsonObject { ["addresstype"] = "bech32" }, ct)).GetProperty("bech32").GetString()!;

    public async Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default)
    {
        var funds = await CallAsync("listfunds", ct: ct);
        return funds.GetProperty("outputs").EnumerateArray()
            .Where(o => o.GetProperty("status").GetString() == "confirmed")
            .Sum(o => o.GetProperty("amount_msat").GetInt64() / 1000);
    }

    public Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default) =>
        CallAsync("connect", new JsonObject { ["id"] = peer.NodeId, ["host"] = peer.Address.Host, ["port"] = peer.Address.Port }, ct);

    public Task OpenChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) =>
        CallAsync("fundchannel", new JsonObject { ["id"] = peer.NodeId, ["amount"] = capacitySat, ["announce"] = true }, ct);

    public async Task<string> StartExternalChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) =>
        (await CallAsync("fundchannel_start", new JsonObject { ["id"] = peer.NodeId, ["amount"] = capacitySat, ["announce"] = true }, ct))
            .GetProperty("funding_address").GetString()!;

    public Task CompleteExternalChannelAsync(ILightningNode peer, string psbt, CancellationToken ct = default) =>
        CallAsync("fundchannel_complete", new JsonObject { ["id"] = peer.NodeId, ["psbt"] = psbt }, ct);

    public async Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(ILightningNode peer, CancellationToken ct = default)
    {
        var result = await CallAsync("listpeerchannels", new JsonObject { ["id"] = peer.NodeId }, ct);
        return result.GetProperty("channels").EnumerateArray().Select(c => StateOf(c.GetProperty("state").GetString())).ToList();
    }

    public async Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default)
    {
        // askrene's getroutes is what xpay itself asks (getroute is deprecated since v26.06).
        var routes = await CallAsync("getroutes", new JsonObject
        {
            ["source"] = NodeId,
            ["destination"] = payee.NodeId,
            ["amount_msat"] = amountMsat,
            ["layers"] = new JsonArray("auto.localchans", "auto.sourcefree"),
            ["maxfee_msat"] = amountMsat,
            ["final_cltv"] = 18,
        }, ct);
        return routes.GetProperty("routes").GetArrayLength();
    }

    public async Task<NodeInvoice> CreateInvoiceAsync(long amountMsat, string label, string description, PaymentTag tag, CancellationToken ct = default)
    {
        var invoice = await rpc.CallAsync("invoice", new JsonObject
        {
            ["amount_msat"] = amountMsat,
            ["label"] = label,
            ["description"] = description,
        }, tag.InSetup ? $"lnbench:invoice#setup-{tag.PaymentId}" : $"lnbench:invoice#{tag.PaymentId}", ct);
        return new NodeInvoice(invoice.GetProperty("bolt11").GetString()!, invoice.GetProperty("payment_hash").GetString()!);
    }

    public Task PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default) =>
        rpc.CallAsync("xpay", new JsonObject { ["invstring"] = invoice.Encoded }, $"lnbench:xpay#{tag.PaymentId}", ct);

    public ValueTask DisposeAsync() => rpc.DisposeAsync();

    /// <summary>A setup call; its id says so (lnbench:method#setup-N).</summary>
    private Task<JsonElement> CallAsync(string method, JsonObject? parameters = null, CancellationToken ct = default) =>
        rpc.CallAsync(method, parameters, $"lnbench:{method}#setup-{Interlocked.Increment(ref nextSetupId)}", ct);

    private static ChannelState StateOf(string? state) => state switch
    {
        "CHANNELD_NORMAL" => ChannelState.Normal,
        "OPENINGD" or "CHANNELD_AWAITING_LOCKIN" or "DUALOPEND_OPEN_INIT" or "DUALOPEND_OPEN_COMMITTED" or "DUALOPEND_OPEN_COMMIT_READY"
            or "DUALOPEND_AWAITING_LOCKIN" or "CHANNELD_AWAITING_SPLICE" => ChannelState.Opening,
        "CLOSED" or "ONCHAIN" or "FUNDING_SPEND_SEEN" => ChannelState.Closed,
        _ => ChannelState.Closing,
    };
}
