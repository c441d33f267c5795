namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>A Core Lightning node's gossip store (--lightning-dir, regtest), which gossipd and askrene read at start.</summary>
internal sealed class CoreLightningGraph : INodeGraph
{
    public const string StorePath = "regtest/gossip_store";

    public string StoreFile(string nodeDirectory) => Path.Combine(nodeDirectory, StorePath);

    /// <summary>Why a release cannot be asked for routes: getroutes came with xpay.</summary>
    public static string? RoutesRefusal(IReadOnlyDictionary<string, string> versions) =>
        ReleaseVersion.Parse(versions.GetValueOrDefault("lightningd")) is { } version
        && version < CoreLightningKind.Xpay
            ? $"its Core Lightning ({versions["lightningd"]}) has no getroutes (it came in {CoreLightningKind.Xpay}): use {CoreLightningKind.Xpay} or later"
            : null;
}
