namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>How a caller asks a node for a node call some kinds offer.</summary>
internal static class NodeFeatures
{
    /// <summary>
    /// The node as <typeparamref name="T"/>. A run checks its needs against its kinds' offers before any container,
    /// so a node without it here is the harness's mistake: a call that fails as unsupported, naming the capability.
    /// </summary>
    public static T Get<T>(this ILightningNode node)
        where T : class, INodeFeature =>
        node as T
        ?? throw new NodeCallException(
            node.Name,
            typeof(T).Name,
            NodeCallFailure.Unsupported,
            $"{node.Name}: its kind does not offer {KnownCapabilities.Of<T>().Means}"
        );
}
