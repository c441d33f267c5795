namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A node that can open a channel paid for by an outside wallet (Core Lightning's fundchannel_start/complete, LND's
/// PSBT funding): setup then funds every channel from the miner in one transaction, with no wallet funding and no block
/// to wait for first. A kind without it gets its wallet funded and opens channels itself.
/// </summary>
internal interface IExternalChannelFunding
{
    /// <summary>Negotiates a channel to <paramref name="peer"/> (connected); returns the address the funding output must pay.</summary>
    Task<string> StartExternalChannelAsync(ILightningNode peer, long capacitySat, CancellationToken ct = default) =>
        StartExternalChannelAsync(peer, capacitySat, 0, ct);

    /// <param name="pushMsat">What the funder gives the peer's side at the open, so both can pay.</param>
    Task<string> StartExternalChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    );

    /// <summary>Hands over the funding transaction (a PSBT with that output) before anyone broadcasts it.</summary>
    Task CompleteExternalChannelAsync(ILightningNode peer, string psbt, CancellationToken ct = default);
}
