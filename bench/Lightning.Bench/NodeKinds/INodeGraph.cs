namespace Lightning.Bench.NodeKinds;

/// <summary>
/// How a kind's node is given a graph of the public network before the measured window (--graph): records appended to
/// its own gossip store while it is stopped, in the store's version, read by the node as its own when it starts again.
/// </summary>
internal interface INodeGraph
{
    /// <summary>The node's gossip store on the host, under its folder.</summary>
    string StoreFile(string nodeDirectory);
}
