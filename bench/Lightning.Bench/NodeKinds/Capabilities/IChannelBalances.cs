namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that reports what it holds on its side of each channel.</summary>
internal interface IChannelBalances : INodeFeature
{
    /// <summary>What it holds on its side of its usable channels, by peer, and the HTLCs still on them.</summary>
    Task<LocalBalances> GetLocalBalancesAsync(CancellationToken ct = default);
}
