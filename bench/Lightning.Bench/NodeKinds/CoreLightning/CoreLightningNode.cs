using System.Text.Json;
using System.Text.Json.Nodes;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>
/// A running Core Lightning node over its JSON-RPC socket. Payment calls carry ids that name the payment
/// (lnbench:invoice#ID, lnbench:xpay#ID): Core Lightning passes them down its id chains into every span, which is how
/// spans join to payments. Every call's errors reach the harness as <see cref="NodeCallException"/>.
/// </summary>
internal sealed class CoreLightningNode(
    string name,
    PeerAddress address,
    ClnRpcClient rpc,
    string nodeId,
    string version
)
    : ILightningNode,
        IExternalChannelFunding,
        IKeysendPayer,
        IBookkeeper,
        IChannelBalances,
        IPathChoice,
        IRouteQueries,
        IGraphChannels,
        IHistoryListing,
        IChannelListing,
        IHistoryPages
{
    private long nextSetupId;

    public string Name { get; } = name;

    public string NodeId { get; } = nodeId;

    public string Version { get; } = version;

    /// <summary>Whether the node pays with xpay and finds routes with getroutes (from v24.11; a version it cannot read is taken as new).</summary>
    private readonly bool xpay = ReleaseVersion.Parse(version) is not { } release || release >= CoreLightningKind.Xpay;

    /// <summary>Whether keysend is xpay's xkeysend (from v26.06, which deprecated keysend) or the keysend plugin's.</summary>
    private readonly bool xkeysend =
        ReleaseVersion.Parse(version) is not { } keysendRelease || keysendRelease >= CoreLightningKind.Xkeysend;

    /// <summary>What its payments call: xpay from v24.11, pay before.</summary>
    public PaymentCalls Calls => new("invoice", xpay ? "xpay" : "pay") { Keysend = xkeysend ? "xkeysend" : "keysend" };

    public PeerAddress Address { get; } = address;

    public Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default) =>
        SetupCallAsync(
            "getinfo",
            null,
            info =>
            {
                var warning =
                    info.TryGetProperty("warning_bitcoind_sync", out var w) ? w.GetString()
                    : info.TryGetProperty("warning_lightningd_sync", out var l) ? l.GetString()
                    : null;
                return new NodeSyncState(info.GetProperty("blockheight").GetInt64(), warning);
            },
            ct
        );

    /// <summary>
    /// <c>help</c> for one command, answered by lightningd's main loop at a constant cost; not <c>getinfo</c>, which sums
    /// the node's whole forwards table for its <c>fees_collected_msat</c> (wallet_total_forward_fees): 65 ms a call on
    /// v26.06.6 with a million forwards, which a probe every 100 ms would make a third of the node's work.
    /// </summary>
    public Task PingAsync(CancellationToken ct = default) =>
        SetupCallAsync("help", new JsonObject { ["command"] = "help" }, Ignore, ct);

    public Task<string> NewAddressAsync(CancellationToken ct = default) =>
        SetupCallAsync(
            "newaddr",
            new JsonObject { ["addresstype"] = "bech32" },
            a => a.GetProperty("bech32").GetString()!,
            ct
        );

    public Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default) =>
        SetupCallAsync(
            "listfunds",
            null,
            funds =>
                funds
                    .GetProperty("outputs")
                    .EnumerateArray()
                    .Where(o => o.GetProperty("status").GetString() == "confirmed")
                    .Sum(o => o.GetProperty("amount_msat").GetInt64() / 1000),
            ct
        );

    public Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default) =>
        SetupCallAsync(
            "connect",
            new JsonObject
            {
                ["id"] = peer.NodeId,
                ["host"] = peer.Address.Host,
                ["port"] = peer.Address.Port,
            },
            Ignore,
            ct
        );

    public Task OpenChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    ) =>
        SetupCallAsync(
            "fundchannel",
            WithPush(
                new JsonObject
                {
                    ["id"] = peer.NodeId,
                    ["amount"] = capacitySat,
                    ["announce"] = true,
                },
                pushMsat
            ),
            Ignore,
            ct
        );

    public Task<string> StartExternalChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    ) =>
        SetupCallAsync(
            "fundchannel_start",
            WithPush(
                new JsonObject
                {
                    ["id"] = peer.NodeId,
                    ["amount"] = capacitySat,
                    ["announce"] = true,
                },
                pushMsat
            ),
            started => started.GetProperty("funding_address").GetString()!,
            ct
        );

    private static JsonObject WithPush(JsonObject parameters, long pushMsat)
    {
        if (pushMsat > 0)
        {
            parameters["push_msat"] = pushMsat;
        }
        return parameters;
    }

    public async Task KeysendAsync(
        ILightningNode payee,
        long amountMsat,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        try
        {
            var method = xkeysend ? "xkeysend" : "keysend";
            await CallAsync(
                rpc,
                method,
                new JsonObject { ["destination"] = payee.NodeId, ["amount_msat"] = amountMsat },
                $"lnbench:{method}#{tag.PaymentId}",
                Ignore,
                ct
            );
        }
        catch (NodeCallException e)
            when (e.InnerException is JsonRpcException rpcError
                && FailureOf(rpcError) is var failure and not PaymentFailure.Other
            )
        {
            throw new NodeCallException(e.Node, e.Call, e.Failure, e.Message, rpcError) { PaymentFailure = failure };
        }
    }

    public Task ListBalancesAsync(PaymentTag tag, CancellationToken ct = default) =>
        CallAsync(rpc, "bkpr-listbalances", null, $"lnbench:bkpr-listbalances#{tag.PaymentId}", Ignore, ct);

    /// <summary>listpeerchannels over every peer: each channel with its state, balances, HTLCs and fee settings.</summary>
    public Task<int> ListChannelsAsync(PaymentTag tag, CancellationToken ct = default) =>
        CallAsync(
            rpc,
            "listpeerchannels",
            null,
            $"lnbench:listpeerchannels#{tag.PaymentId}",
            result => result.GetProperty("channels").GetArrayLength(),
            ct
        );

    /// <summary>The table's created index as lightningd counts it: <c>wait</c> for index 0 answers at once with where it is.</summary>
    public Task<long> LastIndexAsync(HistoryTable table, CancellationToken ct = default) =>
        SetupCallAsync(
            "wait",
            new JsonObject
            {
                ["subsystem"] = PagedListing(table).Subsystem,
                ["indexname"] = "created",
                ["nextvalue"] = 0,
            },
            result => result.TryGetProperty("created", out var created) ? created.GetInt64() : 0,
            ct
        );

    /// <summary>listinvoices or listsendpays by created index (from v23.08 and v23.11): the rows from <paramref name="after"/>'s next on.</summary>
    public Task<int> ListPageAsync(
        HistoryTable table,
        long after,
        int limit,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        var (method, array, _) = PagedListing(table);
        return CallAsync(
            rpc,
            method,
            new JsonObject
            {
                ["index"] = "created",
                ["start"] = after + 1,
                ["limit"] = limit,
            },
            $"lnbench:{method}#{tag.PaymentId}",
            result => result.GetProperty(array).GetArrayLength(),
            ct
        );
    }

    private static (string Method, string Array, string Subsystem) PagedListing(HistoryTable table) =>
        table == HistoryTable.Invoices
            ? ("listinvoices", "invoices", "invoices")
            : ("listsendpays", "payments", "sendpays");

    public Task CompleteExternalChannelAsync(ILightningNode peer, string psbt, CancellationToken ct = default) =>
        SetupCallAsync("fundchannel_complete", new JsonObject { ["id"] = peer.NodeId, ["psbt"] = psbt }, Ignore, ct);

    public Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(
        ILightningNode peer,
        CancellationToken ct = default
    ) =>
        SetupCallAsync<IReadOnlyList<ChannelState>>(
            "listpeerchannels",
            new JsonObject { ["id"] = peer.NodeId },
            result =>
                result
                    .GetProperty("channels")
                    .EnumerateArray()
                    .Select(c =>
                        StateOf(c.GetProperty("state").GetString()) is var state
                        && state == ChannelState.Normal
                        && c.TryGetProperty("peer_connected", out var connected)
                        && !connected.GetBoolean()
                            ? ChannelState.Opening
                            : state
                    )
                    .ToList(),
            ct
        );

    public Task<LocalBalances> GetLocalBalancesAsync(CancellationToken ct = default) =>
        SetupCallAsync(
            "listpeerchannels",
            null,
            result =>
            {
                var normal = result
                    .GetProperty("channels")
                    .EnumerateArray()
                    .Where(c => StateOf(c.GetProperty("state").GetString()) == ChannelState.Normal)
                    .ToList();
                return new LocalBalances(
                    normal
                        .GroupBy(c => c.GetProperty("peer_id").GetString()!)
                        .ToDictionary(g => g.Key, g => g.Sum(c => c.GetProperty("to_us_msat").GetInt64())),
                    normal.Sum(c => c.TryGetProperty("htlcs", out var htlcs) ? htlcs.GetArrayLength() : 0)
                );
            },
            ct
        );

    // askrene's getroutes is what xpay itself asks (getroute is deprecated since v26.06); before v24.11, getroute.
    // getroute finds one path at a time: routes that together carry the amount (DisjointRoutes).
    public Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default) =>
        !xpay
            ? DisjointRoutes.CountAsync(amountMsat, (amount, avoided) => GetRouteAsync(payee, amount, avoided, ct))
            : SetupCallAsync(
                "getroutes",
                new JsonObject
                {
                    ["source"] = NodeId,
                    ["destination"] = payee.NodeId,
                    ["amount_msat"] = amountMsat,
                    ["layers"] = new JsonArray("auto.localchans", "auto.sourcefree"),
                    ["maxfee_msat"] = amountMsat,
                    ["final_cltv"] = 18,
                },
                routes => routes.GetProperty("routes").GetArrayLength(),
                ct
            );

    // What xpay asks (layers included) and Core Lightning's tests/test_askrene.py::test_real_data asks of the mainnet graph.
    public Task<RouteAnswer> GetRoutesAsync(
        string destinationId,
        long amountMsat,
        long maxFeeMsat,
        PaymentTag tag,
        CancellationToken ct = default
    ) =>
        CallAsync(
            rpc,
            "getroutes",
            new JsonObject
            {
                ["source"] = NodeId,
                ["destination"] = destinationId,
                ["amount_msat"] = amountMsat,
                ["layers"] = new JsonArray("auto.sourcefree", "auto.localchans"),
                ["maxfee_msat"] = maxFeeMsat,
                ["final_cltv"] = 18,
            },
            $"lnbench:getroutes#{tag.PaymentId}",
            routes =>
            {
                var list = routes.GetProperty("routes").EnumerateArray().ToList();
                // A route's first hop carries its amount and every fee after it (amount_in_msat since v26.06, amount_msat before).
                var sent = list.Sum(r =>
                    r.GetProperty("path")[0] is var hop && hop.TryGetProperty("amount_in_msat", out var amountIn)
                        ? amountIn.GetInt64()
                        : hop.GetProperty("amount_msat").GetInt64()
                );
                return new RouteAnswer(list.Count, sent - amountMsat);
            },
            ct
        );

    public Task<bool> KnowsChannelAsync(string shortChannelId, CancellationToken ct = default) =>
        SetupCallAsync(
            "listchannels",
            new JsonObject { ["short_channel_id"] = shortChannelId },
            result => result.GetProperty("channels").GetArrayLength() == 2,
            ct
        );

    /// <summary>getroute's intermediate nodes for the amount, avoiding <paramref name="avoided"/>; null when it finds none.</summary>
    private async Task<IReadOnlyList<string>?> GetRouteAsync(
        ILightningNode payee,
        long amountMsat,
        IReadOnlyList<string> avoided,
        CancellationToken ct
    )
    {
        var parameters = new JsonObject
        {
            ["id"] = payee.NodeId,
            ["amount_msat"] = amountMsat,
            ["riskfactor"] = 1,
        };
        if (avoided.Count > 0)
        {
            parameters["exclude"] = Ids(avoided);
        }
        try
        {
            return await SetupCallAsync<IReadOnlyList<string>?>(
                "getroute",
                parameters,
                route =>
                    route
                        .GetProperty("route")
                        .EnumerateArray()
                        .Select(hop => hop.GetProperty("id").GetString()!)
                        .Where(id => id != payee.NodeId)
                        .ToList(),
                ct
            );
        }
        catch (NodeCallException e)
            when (e.Failure == NodeCallFailure.Refused
                && e.Message.Contains("Could not find a route", StringComparison.OrdinalIgnoreCase)
            )
        {
            return null;
        }
    }

    public Task<NodeInvoice> CreateInvoiceAsync(
        long amountMsat,
        string label,
        string description,
        PaymentTag tag,
        CancellationToken ct = default
    ) =>
        CallAsync(
            rpc,
            "invoice",
            new JsonObject
            {
                ["amount_msat"] = amountMsat,
                ["label"] = label,
                ["description"] = description,
            },
            tag.InSetup ? $"lnbench:invoice#setup-{tag.PaymentId}" : $"lnbench:invoice#{tag.PaymentId}",
            invoice => new NodeInvoice(
                invoice.GetProperty("bolt11").GetString()!,
                invoice.GetProperty("payment_hash").GetString()!
            ),
            ct
        );

    public Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default) =>
        CallAsync(
            rpc,
            "delinvoice",
            new JsonObject { ["label"] = label, ["status"] = "unpaid" },
            tag.InSetup ? $"lnbench:delinvoice#setup-{tag.PaymentId}" : $"lnbench:delinvoice#{tag.PaymentId}",
            Ignore,
            ct
        );

    /// <summary>xpay reports its successful and failed parts; pay its parts (its failed attempts are not in its answer).</summary>
    public async Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default)
    {
        try
        {
            var pay = Calls.Pay;
            return await CallAsync(
                rpc,
                pay,
                new JsonObject { [xpay ? "invstring" : "bolt11"] = invoice.Encoded },
                $"lnbench:{pay}#{tag.PaymentId}",
                paid =>
                    paid.TryGetProperty("successful_parts", out var parts)
                        ? new PaymentParts(
                            parts.GetInt32(),
                            paid.TryGetProperty("failed_parts", out var failed) ? failed.GetInt32() : 0
                        )
                    : paid.TryGetProperty("parts", out var all) ? new PaymentParts(all.GetInt32(), 0)
                    : null,
                ct
            );
        }
        catch (NodeCallException e)
            when (e.InnerException is JsonRpcException rpcError
                && FailureOf(rpcError) is var failure and not PaymentFailure.Other
            )
        {
            throw new NodeCallException(e.Node, e.Call, e.Failure, e.Message, rpcError) { PaymentFailure = failure };
        }
    }

    /// <summary>
    /// From v24.11 xpay over a layer of askrene's in which the payee's other peers are disabled (askrene-disable-node), so
    /// the one path left ends at <paramref name="lastHop"/>; before, pay with them excluded. (pay's exclude cannot be
    /// used from v24.11: xpay takes over pay and ignores the arguments it does not know.)
    /// </summary>
    public async Task PayThroughAsync(
        NodeInvoice invoice,
        ILightningNode lastHop,
        IReadOnlyList<ILightningNode> avoid,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        var id = Math.Abs(tag.PaymentId);
        if (!xpay)
        {
            await CallAsync(
                rpc,
                "pay",
                new JsonObject { ["bolt11"] = invoice.Encoded, ["exclude"] = Ids(avoid.Select(n => n.NodeId)) },
                $"lnbench:pay#setup-{id}",
                Ignore,
                ct
            );
            return;
        }
        var layer = $"lnbench-through-{lastHop.Name}-{id}";
        await SetupCallAsync("askrene-create-layer", new JsonObject { ["layer"] = layer }, Ignore, ct);
        try
        {
            foreach (var node in avoid)
            {
                await SetupCallAsync(
                    "askrene-disable-node",
                    new JsonObject { ["layer"] = layer, ["node"] = node.NodeId },
                    Ignore,
                    ct
                );
            }
            await CallAsync(
                rpc,
                "xpay",
                new JsonObject { ["invstring"] = invoice.Encoded, ["layers"] = new JsonArray(layer) },
                $"lnbench:xpay#setup-{id}",
                Ignore,
                ct
            );
        }
        finally
        {
            await SetupCallAsync(
                "askrene-remove-layer",
                new JsonObject { ["layer"] = layer },
                Ignore,
                CancellationToken.None
            );
        }
    }

    /// <summary>
    /// xpay's final failures by their code and the destination's error (plugins/xpay/xpay.c): 203 is
    /// PAY_DESTINATION_PERM_FAIL, "Destination said it doesn't know invoice: WIRE_INCORRECT_OR_UNKNOWN_PAYMENT_DETAILS".
    /// </summary>
    public static PaymentFailure FailureOf(JsonRpcException error) =>
        error.Code == 203
        && error.RpcMessage.Contains("INCORRECT_OR_UNKNOWN_PAYMENT_DETAILS", StringComparison.OrdinalIgnoreCase)
            ? PaymentFailure.UnknownPaymentDetails
            : PaymentFailure.Other;

    public ValueTask DisposeAsync() => rpc.DisposeAsync();

    /// <summary>
    /// One call and the reading of its answer, with the transport's and the parser's errors translated into
    /// <see cref="NodeCallException"/> (the messages are the client's own, so payments.csv keeps the node's words).
    /// </summary>
    public static async Task<T> CallAsync<T>(
        ClnRpcClient rpc,
        string method,
        JsonObject? parameters,
        string id,
        Func<JsonElement, T> read,
        CancellationToken ct = default
    )
    {
        JsonElement answer;
        try
        {
            answer = await rpc.CallAsync(method, parameters, id, ct);
        }
        catch (JsonRpcException e)
        {
            var failure = e.Code is JsonRpcException.MethodNotFound or JsonRpcException.InvalidParams
                ? NodeCallFailure.Unsupported
                : NodeCallFailure.Refused;
            throw new NodeCallException(rpc.Node, method, failure, e.Message, e);
        }
        catch (RpcConnectionException e)
        {
            throw new NodeCallException(rpc.Node, method, NodeCallFailure.ConnectionLost, e.Message, e);
        }
        return NodeAnswer.Read(rpc.Node, method, answer, read);
    }

    private static bool Ignore(JsonElement answer) => true;

    /// <summary>Node ids as a JSON array, as getroute's and pay's exclude take them.</summary>
    private static JsonArray Ids(IEnumerable<string> ids) =>
        new([.. ids.Select(id => (JsonNode)JsonValue.Create(id)!)]);

    /// <summary>
    /// Asks the node given a history for the last row written, by its own listing from that created index: a history
    /// the node does not see (a partial or damaged write, rows it dropped) stops the run before anything is measured.
    /// </summary>
    public async Task ConfirmHistoryAsync(HistoryCheck check, CancellationToken ct = default)
    {
        var listed = await SetupCallAsync(
            check.Method,
            new JsonObject
            {
                ["index"] = "created",
                ["start"] = check.LastIndex,
                ["limit"] = 1,
            },
            result => result.GetProperty(check.Array).GetArrayLength(),
            ct
        );
        if (listed != 1)
        {
            throw new InvalidOperationException(
                $"{Name} does not see its history: {check.Method} from created index {check.LastIndex:N0} (the last row written) listed {listed} rows; the history is not measured"
            );
        }
    }

    /// <summary>A setup call; its id says so (lnbench:method#setup-N).</summary>
    private Task<T> SetupCallAsync<T>(
        string method,
        JsonObject? parameters,
        Func<JsonElement, T> read,
        CancellationToken ct
    ) =>
        CallAsync(
            rpc,
            method,
            parameters,
            $"lnbench:{method}#setup-{Interlocked.Increment(ref nextSetupId)}",
            read,
            ct
        );

    private static ChannelState StateOf(string? state) =>
        state switch
        {
            "CHANNELD_NORMAL" => ChannelState.Normal,
            "OPENINGD"
            or "CHANNELD_AWAITING_LOCKIN"
            or "DUALOPEND_OPEN_INIT"
            or "DUALOPEND_OPEN_COMMITTED"
            or "DUALOPEND_OPEN_COMMIT_READY"
            or "DUALOPEND_AWAITING_LOCKIN"
            or "CHANNELD_AWAITING_SPLICE" => ChannelState.Opening,
            "CLOSED" or "ONCHAIN" or "FUNDING_SPEND_SEEN" => ChannelState.Closed,
            _ => ChannelState.Closing,
        };
}
