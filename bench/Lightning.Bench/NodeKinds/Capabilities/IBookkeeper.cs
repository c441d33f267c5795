namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that keeps an accounting of its balances the harness can ask (Core Lightning's bookkeeper).</summary>
internal interface IBookkeeper : INodeFeature
{
    /// <summary>
    /// Asks its accounting of its balances (bkpr-listbalances), which first digests every coin movement it has not yet:
    /// after a history is written, the first call digests it all.
    /// </summary>
    Task ListBalancesAsync(PaymentTag tag, CancellationToken ct = default);
}
