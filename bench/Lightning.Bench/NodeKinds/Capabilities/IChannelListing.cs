namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that lists its channels with their peers and balances (a read an operator's tools make all day).</summary>
internal interface IChannelListing : INodeFeature
{
    /// <summary>Lists every channel it has with its peers; returns how many it listed.</summary>
    Task<int> ListChannelsAsync(PaymentTag tag, CancellationToken ct = default);
}
