using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>Connects to every node of a topology through its kind, in parallel, waiting until each answers.</summary>
internal static class NodeConnections
{
    /// <summary>Connects to one node (started again after a restart), waiting until it answers.</summary>
    public static async Task<ILightningNode> ConnectOneAsync(
        NodeSpec spec,
        NodeContainer container,
        NodeKindCatalog kinds,
        NodeWaits waits,
        CancellationToken ct = default
    )
    {
        var kind = kinds.Get(spec.Kind);
        ILightningNode? node = null;
        await waits.UntilAsync(
            $"{spec.Name} RPC to answer",
            async c =>
            {
                var (connected, observed) = await kind.TryConnectAsync(container, c);
                if (connected is null)
                {
                    await waits.ThrowIfAnyDiedAsync(c);
                    return WaitState.NotYet(observed);
                }
                node = connected;
                return WaitState.Met();
            },
            ct
        );
        return node!;
    }

    /// <param name="containerOf">How each node is reached on its host (<see cref="ITopologyHost.NodeContainersAsync"/>).</param>
    public static async Task<IReadOnlyDictionary<string, ILightningNode>> ConnectAsync(
        TopologySpec topology,
        Func<string, NodeContainer> containerOf,
        NodeKindCatalog kinds,
        NodeWaits waits,
        CancellationToken ct = default
    )
    {
        var nodes = new Dictionary<string, ILightningNode>();
        try
        {
            await Task.WhenAll(
                topology.Nodes.Select(async spec =>
                {
                    var node = await ConnectOneAsync(spec, containerOf(spec.Name), kinds, waits, ct);
                    lock (nodes)
                    {
                        nodes[spec.Name] = node;
                    }
                })
            );
        }
        catch
        {
            foreach (var node in nodes.Values)
            {
                await node.DisposeAsync();
            }
            throw;
        }
        return nodes;
    }
}
