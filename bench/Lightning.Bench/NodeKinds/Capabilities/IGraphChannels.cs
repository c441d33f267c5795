namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node whose graph can be asked for one channel (how setup sees a loaded graph arrive).</summary>
internal interface IGraphChannels : INodeFeature
{
    /// <summary>Whether its graph has both directions of the channel <paramref name="shortChannelId"/> (BLOCKxTXxOUT).</summary>
    Task<bool> KnowsChannelAsync(string shortChannelId, CancellationToken ct = default);
}
