using System.Collections.Concurrent;
using System.Globalization;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Nodes;
using Lightning.Bench.NodeKinds.Capabilities;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// A running LND node over its REST API (<see cref="LndRestClient"/>). An invoice is AddInvoice, a payment
/// SendPaymentV2 (routerrpc) waited on until it settles or fails, keysend the same call with the preimage in the
/// keysend record; an invoice "deleted" for a failing payment is cancelled (invoicesrpc), which makes LND fail an HTLC
/// for it as one of an unknown invoice. LND has no trace socket: its payments carry no id into spans.
/// </summary>
internal sealed class LndNode(string name, PeerAddress address, LndRestClient rest, string nodeId, string version)
    : ILightningNode,
        IKeysendPayer,
        IChannelBalances,
        IPathChoice,
        IChannelListing,
        IHistoryPages,
        IHistoryListing
{
    /// <summary>BOLT's keysend record: the preimage travels to the payee in this TLV type.</summary>
    public const string KeysendRecord = "5482373484";

    /// <summary>How long LND itself may try a payment before it gives up (the harness gives up a payment still unanswered at --operation-timeout).</summary>
    public const int PaymentTimeoutSeconds = 120;

    /// <summary>Invoice labels (the harness's) → payment hashes (LND has no labels; cancelling takes the hash).</summary>
    private readonly ConcurrentDictionary<string, string> invoiceHashes = new();

    public string Name { get; } = name;

    public string NodeId { get; } = nodeId;

    public string Version { get; } = version;

    public PeerAddress Address { get; } = address;

    public Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default) =>
        rest.GetAsync(
            "v1/getinfo",
            info => new NodeSyncState(
                info.GetProperty("block_height").GetInt64(),
                info.TryGetProperty("synced_to_chain", out var synced) && synced.GetBoolean()
                    ? null
                    : "LND is not synced to the chain yet"
            ),
            ct
        );

    public Task<string> NewAddressAsync(CancellationToken ct = default) =>
        rest.GetAsync("v1/newaddress?type=WITNESS_PUBKEY_HASH", a => a.GetProperty("address").GetString()!, ct);

    public Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default) =>
        rest.GetAsync("v1/balance/blockchain", b => Int64(b, "confirmed_balance"), ct);

    public async Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default)
    {
        try
        {
            await rest.PostAsync(
                "v1/peers",
                new JsonObject
                {
                    ["addr"] = new JsonObject
                    {
                        ["pubkey"] = peer.NodeId,
                        ["host"] = $"{peer.Address.Host}:{peer.Address.Port}",
                    },
                    ["perm"] = false,
                },
                ct
            );
        }
        catch (NodeCallException e) when (e.Message.Contains("already connected", StringComparison.OrdinalIgnoreCase))
        {
            // Connected already (the peer connected first): what was asked holds.
        }
    }

    public Task OpenChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    ) =>
        rest.PostAsync(
            "v1/channels",
            new JsonObject
            {
                ["node_pubkey"] = Bytes(peer.NodeId),
                ["local_funding_amount"] = capacitySat.ToString(CultureInfo.InvariantCulture),
                ["push_sat"] = (pushMsat / 1000).ToString(CultureInfo.InvariantCulture),
                // Regtest has no fee estimates: a fixed rate above the relay minimum.
                ["sat_per_vbyte"] = "2",
                ["private"] = false,
                // Setup funds each wallet with one output and opens its channels in one go: the second spends the first's change.
                ["spend_unconfirmed"] = true,
            },
            ct
        );

    /// <summary>Its open channels with the peer (active: usable), then its pending ones: opening, or closing.</summary>
    public async Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(
        ILightningNode peer,
        CancellationToken ct = default
    )
    {
        var open = await rest.GetAsync(
            "v1/channels",
            channels =>
                Array(channels, "channels")
                    .Where(c => c.GetProperty("remote_pubkey").GetString() == peer.NodeId)
                    .Select(c =>
                        c.TryGetProperty("active", out var active) && active.GetBoolean()
                            ? ChannelState.Normal
                            : ChannelState.Opening
                    )
                    .ToList(),
            ct
        );
        var pending = await rest.GetAsync(
            "v1/channels/pending",
            channels =>
                Array(channels, "pending_open_channels")
                    .Where(c => RemoteOf(c) == peer.NodeId)
                    .Select(_ => ChannelState.Opening)
                    .Concat(
                        new[] { "waiting_close_channels", "pending_force_closing_channels" }.SelectMany(closing =>
                            Array(channels, closing)
                                .Where(c => RemoteOf(c) == peer.NodeId)
                                .Select(_ => ChannelState.Closing)
                        )
                    )
                    .ToList(),
            ct
        );
        return [.. open, .. pending];
    }

    /// <summary>Its active channels' local balances (LND reports sat) by peer.</summary>
    public Task<LocalBalances> GetLocalBalancesAsync(CancellationToken ct = default) =>
        rest.GetAsync(
            "v1/channels?active_only=true",
            channels => new LocalBalances(
                Array(channels, "channels")
                    .GroupBy(c => c.GetProperty("remote_pubkey").GetString()!)
                    .ToDictionary(g => g.Key, g => g.Sum(c => Int64(c, "local_balance") * 1000)),
                Array(channels, "channels").Sum(c => Array(c, "pending_htlcs").Count())
            ),
            ct
        );

    /// <summary>ListChannels: every open channel with its peer, balances, HTLCs and commitment.</summary>
    public Task<int> ListChannelsAsync(PaymentTag tag, CancellationToken ct = default) =>
        rest.GetAsync("v1/channels", channels => Array(channels, "channels").Count(), ct);

    /// <summary>
    /// ListInvoices or ListPayments from the index before the history's last: the last row written must be listed, a
    /// payment whole (<see cref="LndListedPayment"/>).
    /// </summary>
    public async Task ConfirmHistoryAsync(HistoryCheck check, CancellationToken ct = default)
    {
        if (check.Array == LndForwardsHistory.Events)
        {
            await ConfirmForwardsAsync(check, ct);
            return;
        }
        var payments = check.Array == "payments";
        var listed = await rest.GetAsync(
            PagePath(payments ? HistoryTable.Payments : HistoryTable.Invoices, check.LastIndex - 1, 1, reversed: false),
            answer =>
                Array(answer, check.Array)
                    .Select(row =>
                        (
                            Index: Int64(row, payments ? "payment_index" : "add_index"),
                            Problem: payments ? LndListedPayment.Problem(row) : null
                        )
                    )
                    .ToList(),
            ct
        );
        if (listed is not [var (index, problem)] || index != check.LastIndex)
        {
            throw new InvalidOperationException(
                $"{Name} does not see its history: {check.Method} after index {check.LastIndex - 1:N0} listed [{string.Join(", ", listed.Select(l => l.Index))}], not {check.LastIndex:N0} (the last row written); the history is not measured"
            );
        }
        if (problem is not null)
        {
            throw new InvalidOperationException(
                $"{Name} lists its history's last payment (index {index:N0}) but not as it was written: {problem}; the history is not measured"
            );
        }
    }

    /// <summary>
    /// ForwardingHistory over all time from the offset before the last forward written: exactly one event, that last one
    /// (the answer's offset index is the log's count). Its end time is far ahead: copies a history spaced after a
    /// forward can lie beyond "now", which is the call's default end.
    /// </summary>
    private async Task ConfirmForwardsAsync(HistoryCheck check, CancellationToken ct)
    {
        var (events, offset) = await rest.PostAsync(
            "v1/switch",
            new JsonObject
            {
                ["start_time"] = "0",
                ["end_time"] = FarEndSeconds.ToString(CultureInfo.InvariantCulture),
                ["index_offset"] = check.LastIndex - 1,
                ["num_max_events"] = 1,
            },
            answer =>
                (
                    Array(answer, check.Array).Count(),
                    answer.TryGetProperty("last_offset_index", out _) ? Int64(answer, "last_offset_index") : 0
                ),
            ct
        );
        if (events != 1 || offset != check.LastIndex)
        {
            throw new InvalidOperationException(
                $"{Name} does not see its history: {check.Method} after offset {check.LastIndex - 1:N0} listed {events} event(s) up to offset {offset:N0}, not the last written, {check.LastIndex:N0}; the history is not measured"
            );
        }
    }

    /// <summary>2100-01-01 in Unix seconds: ForwardingHistory's end time when all of a history is asked for.</summary>
    private const long FarEndSeconds = 4_102_444_800;

    /// <summary>ListInvoices or ListPayments asked for the newest row: its index is the answer's last index offset.</summary>
    public Task<long> LastIndexAsync(HistoryTable table, CancellationToken ct = default) =>
        rest.GetAsync(
            PagePath(table, 0, 1, reversed: true),
            answer => answer.TryGetProperty("last_index_offset", out _) ? Int64(answer, "last_index_offset") : 0,
            ct
        );

    /// <summary>ListInvoices (index_offset, num_max_invoices) or ListPayments (index_offset, max_payments, incomplete ones too): the rows after the offset.</summary>
    public Task<int> ListPageAsync(
        HistoryTable table,
        long after,
        int limit,
        PaymentTag tag,
        CancellationToken ct = default
    ) =>
        rest.GetAsync(
            PagePath(table, after, limit, reversed: false),
            answer => Array(answer, table == HistoryTable.Invoices ? "invoices" : "payments").Count(),
            ct
        );

    private static string PagePath(HistoryTable table, long after, int limit, bool reversed)
    {
        var order = reversed ? "true" : "false";
        return table == HistoryTable.Invoices
            ? FormattableString.Invariant($"v1/invoices?index_offset={after}&num_max_invoices={limit}&reversed={order}")
            : FormattableString.Invariant(
                $"v1/payments?index_offset={after}&max_payments={limit}&include_incomplete=true&reversed={order}"
            );
    }

    private static string? RemoteOf(JsonElement pending) =>
        pending.TryGetProperty("channel", out var channel) && channel.TryGetProperty("remote_node_pub", out var remote)
            ? remote.GetString()
            : null;

    /// <summary>QueryRoutes finds one path at a time: routes that together carry the amount (<see cref="DisjointRoutes"/>).</summary>
    public Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default) =>
        DisjointRoutes.CountAsync(amountMsat, (amount, avoided) => QueryRouteAsync(payee, amount, avoided, ct));

    /// <summary>The intermediate nodes of a route for the amount that avoids <paramref name="ignoredNodes"/>, or null if none.</summary>
    private async Task<IReadOnlyList<string>?> QueryRouteAsync(
        ILightningNode payee,
        long amountMsat,
        IReadOnlyList<string> ignoredNodes,
        CancellationToken ct
    )
    {
        var path =
            $"v1/graph/routes/{payee.NodeId}/{(amountMsat + 999) / 1000}"
            + string.Concat(
                ignoredNodes.Select((n, i) => $"{(i == 0 ? '?' : '&')}ignored_nodes={Uri.EscapeDataString(Bytes(n))}")
            );
        try
        {
            return await rest.GetAsync<IReadOnlyList<string>?>(
                path,
                r =>
                    Array(r, "routes")
                        .Select(route =>
                            (IReadOnlyList<string>)
                                Array(route, "hops")
                                    .Select(h => h.GetProperty("pub_key").GetString()!)
                                    .Where(k => k != payee.NodeId)
                                    .ToList()
                        )
                        .FirstOrDefault(),
                ct
            );
        }
        catch (NodeCallException e)
            when (e.Failure == NodeCallFailure.Refused
                && e.Message.Contains("unable to find a path", StringComparison.OrdinalIgnoreCase)
            )
        {
            return null;
        }
    }

    public async Task<NodeInvoice> CreateInvoiceAsync(
        long amountMsat,
        string label,
        string description,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        var invoice = await rest.PostAsync(
            "v1/invoices",
            new JsonObject
            {
                ["value_msat"] = amountMsat.ToString(CultureInfo.InvariantCulture),
                ["memo"] = description,
            },
            i => new NodeInvoice(
                i.GetProperty("payment_request").GetString()!,
                Hex(i.GetProperty("r_hash").GetString()!)
            ),
            ct
        );
        invoiceHashes[label] = invoice.PaymentHash;
        return invoice;
    }

    /// <summary>LND cannot delete an open invoice; it cancels it, after which it fails an HTLC for it as unknown.</summary>
    public async Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default)
    {
        if (!invoiceHashes.TryRemove(label, out var hash))
        {
            throw new NodeCallException(
                Name,
                "v2/invoices/cancel",
                NodeCallFailure.Refused,
                $"{Name}: no invoice labelled {label} was made on this node"
            );
        }
        await rest.PostAsync("v2/invoices/cancel", new JsonObject { ["payment_hash"] = Bytes(hash) }, ct);
    }

    public async Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default) =>
        await SendAsync(new JsonObject { ["payment_request"] = invoice.Encoded, ["fee_limit_msat"] = "100000000" }, ct);

    /// <summary>SendPaymentV2 with its last hop fixed (last_hop_pubkey): the path can end nowhere else.</summary>
    public async Task PayThroughAsync(
        NodeInvoice invoice,
        ILightningNode lastHop,
        IReadOnlyList<ILightningNode> avoid,
        PaymentTag tag,
        CancellationToken ct = default
    ) =>
        await SendAsync(
            new JsonObject
            {
                ["payment_request"] = invoice.Encoded,
                ["fee_limit_msat"] = "100000000",
                ["last_hop_pubkey"] = Bytes(lastHop.NodeId),
            },
            ct
        );

    public async Task KeysendAsync(
        ILightningNode payee,
        long amountMsat,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        var preimage = RandomNumberGenerator.GetBytes(32);
        await SendAsync(
            new JsonObject
            {
                ["dest"] = Bytes(payee.NodeId),
                ["amt_msat"] = amountMsat.ToString(CultureInfo.InvariantCulture),
                ["payment_hash"] = Convert.ToBase64String(SHA256.HashData(preimage)),
                ["dest_custom_records"] = new JsonObject { [KeysendRecord] = Convert.ToBase64String(preimage) },
                ["fee_limit_msat"] = amountMsat.ToString(CultureInfo.InvariantCulture),
            },
            ct
        );
    }

    /// <summary>
    /// SendPaymentV2 until the payment settles or fails (no in-flight updates): its HTLCs that succeeded are the parts,
    /// the others failed attempts; a failure carries LND's reason (FAILURE_REASON_INCORRECT_PAYMENT_DETAILS: the payee
    /// does not know the payment).
    /// </summary>
    private async Task<PaymentParts> SendAsync(JsonObject request, CancellationToken ct)
    {
        const string Path = "v2/router/send";
        request["timeout_seconds"] = PaymentTimeoutSeconds;
        request["no_inflight_updates"] = true;
        var payment = await rest.StreamUntilAsync(
            Path,
            request,
            p => p.TryGetProperty("status", out var s) && s.GetString() is "SUCCEEDED" or "FAILED",
            ct
        );
        var htlcs = Array(payment, "htlcs")
            .Select(h => h.TryGetProperty("status", out var s) ? s.GetString() : null)
            .ToList();
        var parts = new PaymentParts(htlcs.Count(s => s == "SUCCEEDED"), htlcs.Count(s => s == "FAILED"));
        if (payment.GetProperty("status").GetString() == "SUCCEEDED")
        {
            return parts;
        }
        var reason = payment.TryGetProperty("failure_reason", out var r) ? r.GetString() ?? "" : "";
        throw new NodeCallException(
            Name,
            Path,
            NodeCallFailure.Refused,
            $"{Name}: SendPaymentV2 failed: {reason} after {htlcs.Count} attempt(s)"
        )
        {
            PaymentFailure = FailureOf(reason),
        };
    }

    public static PaymentFailure FailureOf(string reason) =>
        reason == "FAILURE_REASON_INCORRECT_PAYMENT_DETAILS"
            ? PaymentFailure.UnknownPaymentDetails
            : PaymentFailure.Other;

    private static IEnumerable<JsonElement> Array(JsonElement parent, string name) =>
        parent.TryGetProperty(name, out var array) && array.ValueKind == JsonValueKind.Array
            ? array.EnumerateArray()
            : [];

    /// <summary>The REST gateway writes 64-bit integers as strings.</summary>
    public static long Int64(JsonElement parent, string name)
    {
        var value = parent.GetProperty(name);
        return value.ValueKind == JsonValueKind.String
            ? long.Parse(value.GetString()!, CultureInfo.InvariantCulture)
            : value.GetInt64();
    }

    /// <summary>A hex string (a public key, a payment hash) as the REST gateway takes bytes: base64.</summary>
    public static string Bytes(string hex) => Convert.ToBase64String(Convert.FromHexString(hex));

    public static string Hex(string base64) => Convert.ToHexStringLower(Convert.FromBase64String(base64));

    public ValueTask DisposeAsync() => rest.DisposeAsync();
}
