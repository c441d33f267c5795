using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>Connects to every node of a topology through its kind, in parallel, waiting until each answers.</summary>
internal static class NodeConnections
{
    public static async Task<IReadOnlyDictionary<string, ILightningNode>> ConnectAsync(
        TopologySpec topology, IReadOnlyDictionary<string, string> containers, RunLayout layout, NodeKindCatalog kinds,
        DockerEngine engine, NodeWaits waits, CancellationToken ct = default, Func<string, NodeContainer>? containerOf = null)
    {
        var nodes = new Dictionary<string, ILightningNode>();
        // Nodes share bitcoind's network namespace, so what they publish is published by bitcoind's container (on a swarm, nothing is published).
        var published = containerOf is not null ? new Dictionary<string, int>()
            : (await engine.InspectContainerAsync(containers[TopologySpec.BitcoindName], ct))?.HostPorts ?? new Dictionary<string, int>();
        try
        {
            await Task.WhenAll(topology.Nodes.Select(async spec =>
            {
                var kind = kinds.Get(spec.Kind);
                var container = containerOf?.Invoke(spec.Name) ?? new NodeContainer(spec.Name, containers[spec.Name], layout.NodeDirectory(spec.Name), published,
                    ComposeGenerator.PeerAddressOf(topology, spec.Name));
                ILightningNode? node = null;
                await waits.UntilAsync($"{spec.Name} RPC to answer", async c =>
                {
                    var (connected, observed) = await kind.TryConnectAsync(container, c);
                    if (connected is null)
                    {
                        await waits.ThrowIfAnyDiedAsync(c);
                        return WaitState.NotYet(observed);
                    }
                    node = connected;
                    return WaitState.Met();
                }, ct);
                lock (nodes)
                {
                    nodes[spec.Name] = node!;
                }
            }));
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
