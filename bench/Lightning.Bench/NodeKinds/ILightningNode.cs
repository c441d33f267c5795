namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A running Lightning node as setup and payments see it, whatever its implementation. A call that gets no usable
/// answer (refused, not understood, or its connection lost) throws <see cref="NodeCallException"/>, whatever the kind's
/// transport. Calls some kinds offer and others do not are small interfaces beside it
/// (<see cref="Capabilities.INodeFeature"/>).
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

    /// <summary>A fresh on-chain address of its wallet (bech32 on regtest).</summary>
    Task<string> NewAddressAsync(CancellationToken ct = default);

    /// <summary>Confirmed on-chain funds its wallet can spend.</summary>
    Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default);

    Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default);

    /// <summary>Funds and announces a channel to <paramref name="peer"/>; it becomes usable once the funding transaction is deep enough.</summary>
    Task OpenChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) =>
        OpenChannelAsync(peer, capacitySat, 0, ct);

    /// <param name="pushMsat">What the funder gives the peer's side at the open, so both can pay.</param>
    Task OpenChannelAsync(ILightningNode peer, long capacitySat, long pushMsat, CancellationToken ct = default);

    /// <summary>The states of its channels with <paramref name="peer"/>, in the harness's terms.</summary>
    Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(ILightningNode peer, CancellationToken ct = default);

    /// <summary>
    /// How many routes to <paramref name="payee"/> it knows of now that together carry the amount (0 while they cannot:
    /// gossip has not arrived, or not about every path a payment larger than one channel needs).
    /// </summary>
    Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default);

    /// <param name="tag">Names the payment, so the kind can carry it into its traces (Core Lightning: the JSON-RPC id).</param>
    Task<NodeInvoice> CreateInvoiceAsync(
        long amountMsat,
        string label,
        string description,
        PaymentTag tag,
        CancellationToken ct = default
    );

    /// <summary>Deletes an unpaid invoice: a payment of it then fails at this node as one of an unknown invoice.</summary>
    Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default);

    /// <summary>Pays <paramref name="invoice"/>; a refusal says why in <see cref="NodeCallException.PaymentFailure"/> where the kind can tell.</summary>
    /// <returns>Its parts, where the kind reports them (null: it does not).</returns>
    Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default);
}
