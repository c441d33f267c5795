namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>A Core Lightning node's gossip store (--lightning-dir, regtest), which gossipd and askrene read at start.</summary>
internal sealed class CoreLightningGraph : INodeGraph
{
    public const string StorePath = "regtest/gossip_store";

    public string StoreFile(string nodeDirectory) => Path.Combine(nodeDirectory, StorePath);

    public string? RoutesRefusal(IReadOnlyDictionary<string, string> versions) =>
        ReleaseVersion.Parse(versions.GetValueOrDefault("lightningd")) is { } version && version < CoreLightningKind.Xpay
            ? $"its Core Lightning ({versions["lightningd"]}) has no getroutes (it came in {CoreLightningKind.Xpay}): ask routes of {CoreLightningKind.Xpay} or later, or pay through the graph (--workload pay)"
            : null;
}
