namespace Lightning.Bench.NodeKinds;

/// <summary>A started node container, as a kind connects to it.</summary>
/// <param name="Directory">The node's folder on the host, mounted in the container (sockets and logs live there).</param>
/// <param name="HostPorts">Container port ("9735/tcp") → port published on the host's loopback (by the container that
/// owns the topology's network namespace, bitcoind's).</param>
/// <param name="Peer">Where the node listens for peers (<see cref="NodeServiceSettings.Peer"/>).</param>
internal sealed record NodeContainer(
    string Name,
    string ContainerId,
    string Directory,
    IReadOnlyDictionary<string, int> HostPorts,
    PeerAddress Peer
)
{
    /// <summary>On a swarm: the node's host's agent, which pipes its RPC socket (the folder is then on that host, not here).</summary>
    public INodeRelay? Relay { get; init; }
}
