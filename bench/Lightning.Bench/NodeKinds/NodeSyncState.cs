namespace Lightning.Bench.NodeKinds;

/// <summary>The chain tip a node has processed, and its own warning while it is still catching up.</summary>
internal sealed record NodeSyncState(long BlockHeight, string? Warning)
{
    public bool SyncedTo(long height) => BlockHeight >= height && Warning is null;

    public override string ToString() => $"blockheight {BlockHeight}{(Warning is null ? "" : $", {Warning}")}";
}
