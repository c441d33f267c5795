using Lightning.Bench.NodeKinds;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.Tests.Support.StandIn;

/// <summary>
/// The handle of a stand-in node: each call is one HTTP GET answered by a CGI script with key=value lines. Query values
/// are sent as they are (the scripts do not decode them): labels and invoices hold only URL-safe characters.
/// </summary>
public sealed class StandInNode(string name, PeerAddress address, Uri endpoint) : ILightningNode
{
    private readonly HttpClient http = new() { BaseAddress = endpoint, Timeout = TimeSpan.FromSeconds(30) };

    public string Name { get; } = name;

    public string NodeId { get; private set; } = "";

    public string Version { get; private set; } = "";

    public PeerAddress Address { get; } = address;

    public async Task InitializeAsync(CancellationToken ct)
    {
        var info = await CallAsync("getinfo", "", ct);
        NodeId = info["id"];
        Version = info["version"];
    }

    public async Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default) =>
        new(long.Parse((await CallAsync("getinfo", "", ct))["height"]), null);

    public async Task<string> NewAddressAsync(CancellationToken ct = default) => (await CallAsync("newaddr", "", ct))["address"];

    public async Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default) => long.Parse((await CallAsync("balance", "", ct))["sat"]);

    public Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default) =>
        CallAsync("connect", $"host={peer.Address.Host}&port={peer.Address.Port}", ct);

    public Task OpenChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) =>
        CallAsync("open", $"peer={peer.NodeId}&addr={peer.Address.Host}:{peer.Address.Port}&sat={capacitySat}", ct);

    public async Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(ILightningNode peer, CancellationToken ct = default)
    {
        var state = (await CallRawAsync("channels", $"peer={peer.NodeId}", ct)).Trim();
        return state switch
        {
            "" => [],
            "normal" => [ChannelState.Normal],
            _ => [ChannelState.Opening],
        };
    }

    public async Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default) =>
        int.Parse((await CallAsync("routes", $"payee={payee.NodeId}&amount={amountMsat}", ct))["routes"]);

    public async Task<NodeInvoice> CreateInvoiceAsync(long amountMsat, string label, string description, PaymentTag tag, CancellationToken ct = default)
    {
        var invoice = await CallAsync("invoice", $"amount={amountMsat}&label={label}&payment={tag.PaymentId}", ct);
        return new NodeInvoice(invoice["invoice"], invoice["hash"]);
    }

    public Task PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default) =>
        CallAsync("pay", $"invoice={invoice.Encoded}&payment={tag.PaymentId}", ct);

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

    private async Task<string> CallRawAsync(string call, string query, CancellationToken ct)
    {
        string body;
        try
        {
            body = await http.GetStringAsync($"{call}?{query}", ct);
        }
        catch (HttpRequestException e)
        {
            throw new RpcConnectionException($"{Name}: {call}: {e.Message}", e);
        }
        if (body.StartsWith("error", StringComparison.Ordinal))
        {
            throw new JsonRpcException(Name, call, -1, body.Trim());
        }
        return body;
    }
}
