using System.Net;
using System.Net.Sockets;
using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// How the harness reaches a node on another host: through that host's agent (its endpoint on the run's overlay and
/// the run's token), naming the node by its topology (the stack) and its network folder.
/// </summary>
internal sealed record NodeRelay(EndPoint Agent, byte[] Token, string Topology, string Network = "regtest") : INodeRelay
{
    /// <summary>How long opening a pipe may take (the agent is on the overlay: seconds at most).</summary>
    public static readonly TimeSpan OpenTimeout = TimeSpan.FromSeconds(10);

    public async Task<Socket> OpenAsync(string node, CancellationToken ct = default)
    {
        try
        {
            return await RelayRpc.OpenAsync(Agent, Token, Topology, node, Network, OpenTimeout, ct);
        }
        catch (RelayRefusedException e)
        {
            // The agent refused the harness (token, version): asking again cannot help, so the node's connection is lost.
            throw new NodeCallException(node, "connect", NodeCallFailure.ConnectionLost, e.Message, e);
        }
    }

    public override string ToString() =>
        $"NodeRelay {{ Agent = {Agent}, Token = ***, Topology = {Topology}, Network = {Network} }}";
}
