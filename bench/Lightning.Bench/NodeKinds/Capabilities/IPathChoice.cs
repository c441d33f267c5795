namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that can pay over a path the caller chooses the end of.</summary>
internal interface IPathChoice : INodeFeature
{
    /// <summary>
    /// Pays <paramref name="invoice"/> over a path whose last hop is <paramref name="lastHop"/> and which crosses none of
    /// <paramref name="avoid"/> (the payee's other peers): how setup moves liquidity back over the channel it came by.
    /// </summary>
    Task PayThroughAsync(
        NodeInvoice invoice,
        ILightningNode lastHop,
        IReadOnlyList<ILightningNode> avoid,
        PaymentTag tag,
        CancellationToken ct = default
    );
}
