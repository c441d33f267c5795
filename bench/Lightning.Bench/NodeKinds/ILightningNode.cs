namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A running Lightning node as setup and payments see it, whatever its implementation. A call that gets no usable
/// answer (refused, not understood, or its connection lost) throws <see cref="NodeCallException"/>, whatever the kind's
/// transport.
/// </summary>
internal interface ILightningNode : IAsyncDisposable
{
    /// <summary>Its name in the topology (also its host name on the compose network).</summary>
    string Name { get; }

    /// <summary>Its public key, as peers and invoices name it.</summary>
    string NodeId { get; }

    /// <summary>The version the node reports about itself (kept in the manifest).</summary>
    string Version { get; }

    /// <summary>What its payments call, where it depends on the node's release (Core Lightning: pay before v24.11); null: its kind's.</summary>
    PaymentCalls? Calls => null;

    /// <summary>Where peers reach it on the compose network.</summary>
    PeerAddress Address { get; }

    Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default);

    /// <summary>
    /// The responsiveness probe's call (--probe): the cheapest call the node answers where its work is done (Core
    /// Lightning: lightningd's main loop), whose cost must not grow with the node's history; by default its sync state.
    /// </summary>
    Task PingAsync(CancellationToken ct = default) => GetSyncStateAsync(ct);

    /// <summary>
    /// Once restarted with a history, asks the node by its own listing for the history's last row (<paramref name="check"/>);
    /// a history it does not see throws, so it is never measured. A kind that cannot be given a history never gets here.
    /// </summary>
    Task ConfirmHistoryAsync(HistoryCheck check, CancellationToken ct = default) =>
        throw new InvalidOperationException($"{Name} cannot be given a history");

    /// <summary>A fresh on-chain address of its wallet (bech32 on regtest).</summary>
    Task<string> NewAddressAsync(CancellationToken ct = default);

    /// <summary>Confirmed on-chain funds its wallet can spend.</summary>
    Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default);

    Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default);

    /// <summary>Funds and announces a channel to <paramref name="peer"/>; it becomes usable once the funding transaction is deep enough.</summary>
    Task OpenChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) => OpenChannelAsync(peer, capacitySat, 0, ct);

    /// <param name="pushMsat">What the funder gives the peer's side at the open, so both can pay.</param>
    Task OpenChannelAsync(ILightningNode peer, long capacitySat, long pushMsat, CancellationToken ct = default);

    /// <summary>Pays <paramref name="payee"/> without an invoice (keysend: the payer makes the preimage); a refusal says why where the kind can tell.</summary>
    Task KeysendAsync(ILightningNode payee, long amountMsat, PaymentTag tag, CancellationToken ct = default) =>
        throw new NodeCallException(Name, "keysend", NodeCallFailure.Unsupported, $"{Name}: its kind cannot pay without an invoice");

    /// <summary>
    /// Asks its accounting of its balances (Core Lightning's bookkeeper: bkpr-listbalances), which first digests every
    /// coin movement it has not yet: after a history is written, the first call digests it all.
    /// </summary>
    Task ListBalancesAsync(PaymentTag tag, CancellationToken ct = default) =>
        throw new NodeCallException(Name, "balances", NodeCallFailure.Unsupported, $"{Name}: its kind keeps no accounting of its balances the harness can ask");

    /// <summary>The states of its channels with <paramref name="peer"/>, in the harness's terms.</summary>
    Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(ILightningNode peer, CancellationToken ct = default);

    /// <summary>What it holds on its side of its usable channels, by peer, and the HTLCs still on them.</summary>
    Task<LocalBalances> GetLocalBalancesAsync(CancellationToken ct = default) =>
        throw new NodeCallException(Name, "balances", NodeCallFailure.Unsupported, $"{Name}: its kind does not report its channels' balances");

    /// <summary>
    /// How many routes to <paramref name="payee"/> it knows of now that together carry the amount (0 while they cannot:
    /// gossip has not arrived, or not about every path a payment larger than one channel needs).
    /// </summary>
    Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default);

    /// <param name="tag">Names the payment, so the kind can carry it into its traces (Core Lightning: the JSON-RPC id).</param>
    Task<NodeInvoice> CreateInvoiceAsync(long amountMsat, string label, string description, PaymentTag tag, CancellationToken ct = default);

    /// <summary>Deletes an unpaid invoice: a payment of it then fails at this node as one of an unknown invoice.</summary>
    Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default);

    /// <summary>Pays <paramref name="invoice"/>; a refusal says why in <see cref="NodeCallException.PaymentFailure"/> where the kind can tell.</summary>
    /// <returns>Its parts, where the kind reports them (null: it does not).</returns>
    Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default);

    /// <summary>
    /// Pays <paramref name="invoice"/> over a path whose last hop is <paramref name="lastHop"/> and which crosses none of
    /// <paramref name="avoid"/> (the payee's other peers): how setup moves liquidity back over the channel it came by.
    /// </summary>
    Task PayThroughAsync(NodeInvoice invoice, ILightningNode lastHop, IReadOnlyList<ILightningNode> avoid, PaymentTag tag, CancellationToken ct = default) =>
        throw new NodeCallException(Name, "pay", NodeCallFailure.Unsupported, $"{Name}: its kind cannot choose a payment's last hop");

    /// <summary>
    /// Routes from itself to the node <paramref name="destinationId"/> (hex) for <paramref name="amountMsat"/>, paying at
    /// most <paramref name="maxFeeMsat"/> (Core Lightning: askrene's getroutes, as xpay asks it); none found is a
    /// <see cref="NodeCallException"/> with <see cref="NodeCallFailure.Refused"/> and the node's reason.
    /// </summary>
    Task<RouteAnswer> GetRoutesAsync(string destinationId, long amountMsat, long maxFeeMsat, PaymentTag tag, CancellationToken ct = default) =>
        throw new NodeCallException(Name, "getroutes", NodeCallFailure.Unsupported, $"{Name}: its kind cannot be asked for routes");

    /// <summary>Whether its graph has both directions of the channel <paramref name="shortChannelId"/> (BLOCKxTXxOUT).</summary>
    Task<bool> KnowsChannelAsync(string shortChannelId, CancellationToken ct = default) =>
        throw new NodeCallException(Name, "listchannels", NodeCallFailure.Unsupported, $"{Name}: its kind cannot be asked for a channel of its graph");
}

/// <summary>Routes a node found: how many parts the amount is split in, and what they pay in fees together.</summary>
internal sealed record RouteAnswer(int Parts, long FeeMsat);
