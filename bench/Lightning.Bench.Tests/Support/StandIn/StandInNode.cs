using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;

namespace Lightning.Bench.Tests.Support.StandIn;

/// <summary>
/// The handle of a stand-in node: each call is one HTTP GET answered by a CGI script with key=value lines. Query values
/// are sent as they are (the scripts do not decode them): labels and invoices hold only URL-safe characters.
/// </summary>
internal sealed class StandInNode(string name, PeerAddress address, Uri endpoint) : ILightningNode, IKeysendPayer
{
    private readonly HttpClient http = new() { BaseAddress = endpoint, Timeout = TimeSpan.FromSeconds(30) };

    public string Name { get; } = name;

    public string NodeId { get; private set; } = "";

    public string Version { get; private set; } = "";

    public PeerAddress Address { get; } = address;

    public async Task InitializeAsync(CancellationToken ct)
    {
        (NodeId, Version) = await ReadAsync("getinfo", "", info => (info["id"], info["version"]), ct);
    }

    public Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default) =>
        ReadAsync("getinfo", "", info => new NodeSyncState(long.Parse(info["height"]), null), ct);

    public Task<string> NewAddressAsync(CancellationToken ct = default) =>
        ReadAsync("newaddr", "", a => a["address"], ct);

    public Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default) =>
        ReadAsync("balance", "", b => long.Parse(b["sat"]), ct);

    public Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default) =>
        CallAsync("connect", $"host={peer.Address.Host}&port={peer.Address.Port}", ct);

    public Task OpenChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    ) => CallAsync("open", $"peer={peer.NodeId}&addr={peer.Address.Host}:{peer.Address.Port}&sat={capacitySat}", ct);

    public async Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(
        ILightningNode peer,
        CancellationToken ct = default
    )
    {
        var state = (await CallRawAsync("channels", $"peer={peer.NodeId}", ct)).Trim();
        return state switch
        {
            "" => [],
            "normal" => [ChannelState.Normal],
            _ => [ChannelState.Opening],
        };
    }

    public Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default) =>
        ReadAsync("routes", $"payee={payee.NodeId}&amount={amountMsat}", r => int.Parse(r["routes"]), ct);

    public Task<NodeInvoice> CreateInvoiceAsync(
        long amountMsat,
        string label,
        string description,
        PaymentTag tag,
        CancellationToken ct = default
    ) =>
        ReadAsync(
            "invoice",
            $"amount={amountMsat}&label={label}&payment={tag.PaymentId}",
            i => new NodeInvoice(i["invoice"], i["hash"]),
            ct
        );

    public Task KeysendAsync(ILightningNode payee, long amountMsat, PaymentTag tag, CancellationToken ct = default) =>
        CallAsync(
            "keysend",
            $"payee={payee.Name}&addr={payee.Address.Host}:{payee.Address.Port}&amount={amountMsat}&payment={tag.PaymentId}",
            ct
        );

    public Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default) =>
        CallAsync("delinvoice", $"label={label}", ct);

    /// <summary>The payee's "unknown or paid invoice" (its settle script's words) is its incorrect_or_unknown_payment_details.</summary>
    public async Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default)
    {
        try
        {
            await CallAsync("pay", $"invoice={invoice.Encoded}&payment={tag.PaymentId}", ct);
            return null;
        }
        catch (NodeCallException e) when (e.Message.Contains("unknown or paid invoice", StringComparison.Ordinal))
        {
            throw new NodeCallException(e.Node, e.Call, e.Failure, e.Message, e)
            {
                PaymentFailure = PaymentFailure.UnknownPaymentDetails,
            };
        }
    }

    public ValueTask DisposeAsync()
    {
        http.Dispose();
        return ValueTask.CompletedTask;
    }

    private async Task<Dictionary<string, string>> CallAsync(string call, string query, CancellationToken ct)
    {
        var body = await CallRawAsync(call, query, ct);
        return body.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split('=', 2))
            .Where(pair => pair.Length == 2)
            .ToDictionary(pair => pair[0], pair => pair[1]);
    }

    /// <summary>Reads an answer; one that lacks what the call returns is the kind's error, like any other.</summary>
    private async Task<T> ReadAsync<T>(
        string call,
        string query,
        Func<Dictionary<string, string>, T> read,
        CancellationToken ct
    )
    {
        var answer = await CallAsync(call, query, ct);
        try
        {
            return read(answer);
        }
        catch (Exception e) when (e is KeyNotFoundException or FormatException)
        {
            throw new NodeCallException(Name, call, NodeCallFailure.BadAnswer, $"{Name}: {call}: {e.Message}", e);
        }
    }

    private async Task<string> CallRawAsync(string call, string query, CancellationToken ct)
    {
        string body;
        try
        {
            body = await http.GetStringAsync($"{call}?{query}", ct);
        }
        catch (HttpRequestException e)
        {
            throw new NodeCallException(Name, call, NodeCallFailure.ConnectionLost, $"{Name}: {call}: {e.Message}", e);
        }
        if (body.StartsWith("error", StringComparison.Ordinal))
        {
            throw new NodeCallException(Name, call, NodeCallFailure.Refused, $"{Name}: {call} failed: {body.Trim()}");
        }
        return body;
    }
}
