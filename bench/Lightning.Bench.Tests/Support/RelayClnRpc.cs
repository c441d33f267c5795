using System.Net;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Support;

/// <summary>Core Lightning's JSON-RPC client over a swarm agent's RPC pipe, as the kind connects to a node on another host.</summary>
internal static class RelayClnRpc
{
    public static async Task<ClnRpcClient> ConnectAsync(
        EndPoint agent,
        byte[] token,
        string topology,
        string node,
        string network,
        TimeSpan timeout,
        CancellationToken ct = default
    ) => ClnRpcClient.Over(node, await RelayRpc.OpenAsync(agent, token, topology, node, network, timeout, ct));
}
