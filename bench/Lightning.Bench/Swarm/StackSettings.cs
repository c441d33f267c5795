namespace Lightning.Bench.Swarm;

/// <summary>What a run decides about one topology's stack file, beyond the topology.</summary>
/// <param name="RunId">The run: names its network, work volume and secrets.</param>
/// <param name="StackName">The topology's stack (its project name on one host).</param>
/// <param name="User">uid:gid the containers run as, or null for the image's user.</param>
/// <param name="Labels">The run's labels: on every service, its containers and the work volume, so a sweep finds them on every host.</param>
/// <param name="Host">The swarm node (its hostname) the topology runs on: bitcoind and every node not placed apart.</param>
/// <param name="TraceSockets">Whether each node whose kind has a trace source sends its spans to a socket the agent binds.</param>
/// <param name="DevTraceFile">Whether each node also writes Core Lightning's trace file (ground truth for loss checks).</param>
internal sealed record StackSettings(
    string RunId,
    string StackName,
    string? User,
    IReadOnlyDictionary<string, string> Labels,
    string Host,
    bool TraceSockets,
    bool DevTraceFile = false
)
{
    /// <summary>Nodes placed apart (<see cref="Topology.NodeSpec.Placement"/>) → the host each runs on, chosen among those labelled with its placement.</summary>
    public IReadOnlyDictionary<string, string> NodeHosts { get; init; } = new Dictionary<string, string>();
}
