using Lightning.Bench.Graph;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>
/// Gives the nodes of a topology that have a graph share (<see cref="NodeSpec.GraphPercent"/>) the run's mainnet graph,
/// after the channels are open and before the measured window: the node is stopped, the share's channels are appended
/// to its own gossip store (in the store's version, the mapped index given its peer's real id), and it is started
/// again. Setup steps: "graph" (the records written), "restart rpc" (start to its RPC answering: gossipd reads the
/// whole store first), "restart channels" (until its channels are usable again) and "restart graph" (until its graph
/// has the share's last channel): the load, compared as the restart metric.
/// </summary>
internal sealed class GraphLoader(LightningNetwork network, NodeKindCatalog kinds, RunGraph graph, RunProgress progress)
{
    public async Task LoadAsync(TopologySpec topology, SetupTimes.Clock clock, CancellationToken ct)
    {
        foreach (var spec in topology.Nodes.Where(n => n.GraphPercent > 0))
        {
            var store =
                kinds.Get(spec.Kind).Graph
                ?? throw new UsageException(
                    $"{spec.Name} is {spec.Kind}, whose nodes cannot be given a graph yet: give the graph to a Core Lightning node"
                );
            var peer = topology.PeersOf(spec.Name)[0];
            var ids = graph.Ids.Mapping(graph.MappedIndex, Convert.FromHexString(network.Nodes[peer].NodeId));
            var channels = graph.Channels(spec.GraphPercent);
            var writer = graph.Writer(ids);
            var last = GossipStoreWriter.Format(writer.ShortChannelId(channels[^1]));
            var written = 0L;
            byte version = 0;
            await TimedRestart.RestartAsync(
                network,
                progress,
                topology,
                spec.Name,
                $"appending {channels.Length:N0} channels of the graph ({spec.GraphPercent} %) to its gossip store",
                c =>
                {
                    var path = store.StoreFile(network.Layout.NodeDirectory(spec.Name));
                    using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
                    version = (byte)file.ReadByte();
                    if (!GossipStoreWriter.Versions.Contains(version))
                    {
                        throw new UsageException(
                            $"{spec.Name}'s gossip store is version {version}, which this harness does not write ({string.Join(", ", GossipStoreWriter.Versions)}): its build is newer than the harness"
                        );
                    }
                    file.Seek(0, SeekOrigin.End);
                    using var buffered = new BufferedStream(file, 1 << 20);
                    written = writer.Append(buffered, version, channels);
                    buffered.Flush();
                    file.Flush(flushToDisk: true);
                    clock.Lap("graph");
                    return Task.CompletedTask;
                },
                clock,
                ct
            );
            using (progress.Begin($"{spec.Name}: restarted; waiting until its graph has channel {last}"))
            {
                await network.WaitSyncedAsync(ct);
                await network.Waits.UntilAsync(
                    $"{spec.Name}'s graph to have the last channel written ({last})",
                    async c =>
                        await network.Nodes[spec.Name].Get<IGraphChannels>().KnowsChannelAsync(last, c)
                            ? WaitState.Met()
                            : WaitState.NotYet($"{last} not in its graph"),
                    ct
                );
            }
            clock.Lap($"{SetupStep.RestartPrefix} graph");
            progress.Info(
                $"{spec.Name}: {channels.Length:N0} channels of the graph ({written / 1e6:0.0} MB of gossip store version {version}), node {graph.MappedIndex} being {peer}"
            );
        }
    }
}
