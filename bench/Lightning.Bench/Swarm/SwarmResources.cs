using Lightning.Bench.Network;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Swarm;

/// <summary>What a run creates outside its stack files, each with the run's labels: the overlay network (attachable, so
/// the harness's container joins it), the agents' token, and per topology one configuration secret per service.</summary>
internal static class SwarmResources
{
    public static IReadOnlyList<SwarmResource> ForRun(string runId, IReadOnlyDictionary<string, string> labels) =>
        [
            new(SwarmResource.NetworkKind, SwarmNames.Network(runId), labels, "overlay, attachable"),
            new(
                SwarmResource.SecretKind,
                SwarmNames.AgentTokenSecret(runId),
                labels,
                "the token the harness shows the agents"
            ),
        ];

    public static IReadOnlyList<SwarmResource> ForTopology(
        TopologySpec topology,
        string stack,
        IReadOnlyDictionary<string, string> labels
    ) =>
        topology
            .Nodes.Select(n => n.Name)
            .Prepend(TopologySpec.BitcoindName)
            .Select(service => new SwarmResource(
                SwarmResource.SecretKind,
                SwarmNames.ConfigSecret(stack, service),
                new Dictionary<string, string>(labels) { [ComposeGenerator.NodeLabel] = service },
                service == TopologySpec.BitcoindName
                    ? "bitcoind's rpcauth"
                    : $"{service}'s configuration with its bitcoind login"
            ))
            .ToList();
}
