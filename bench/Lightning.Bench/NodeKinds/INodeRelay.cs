using System.Net.Sockets;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.NodeKinds;

/// <summary>
/// How the harness reaches the RPC socket of a node on another host: a pipe that carries the node's JSON-RPC bytes
/// unchanged (a swarm's, through that host's agent: <c>NodeRelay</c>). Set on the node's container by the
/// platform, so a kind connects through it knowing nothing of the relay.
/// </summary>
internal interface INodeRelay
{
    /// <summary>
    /// Opens a pipe to <paramref name="node"/>'s RPC socket. A node not reachable yet (no socket, its host's agent not up)
    /// is <see cref="RpcConnectionException"/>, which the connect wait tries again; a refusal (token, version) is a
    /// <see cref="NodeCallException"/>.
    /// </summary>
    Task<Socket> OpenAsync(string node, CancellationToken ct = default);
}
