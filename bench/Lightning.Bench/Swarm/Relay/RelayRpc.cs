using System.Net;
using System.Net.Sockets;
using Lightning.Bench.Rpc;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The harness's RPC to a node on another host: a TCP connection to that host's agent, opened with RpcOpen, after
/// which it carries the node's JSON-RPC bytes unchanged: a node kind's RPC client (Core Lightning's JSON-RPC) runs over it as over the node's
/// Unix socket on one host.
/// </summary>
internal static class RelayRpc
{
    /// <summary>Opens the pipe; a refusal (token, version) is <see cref="RelayRefusedException"/>, a node the agent cannot reach <see cref="RpcConnectionException"/>.</summary>
    public static async Task<Socket> OpenAsync(
        EndPoint agent,
        byte[] token,
        string topology,
        string node,
        string network,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        Socket? socket = null;
        try
        {
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
            limit.CancelAfter(timeout);
            try
            {
                socket = await Dial.ConnectAsync(agent, limit.Token);
                await using var stream = new NetworkStream(socket, ownsSocket: false);
                await stream.WriteAsync(
                    new RpcOpenMessage(HelloMessage.CurrentVersion, token, topology, node, network).Encode(),
                    limit.Token
                );
                // Exactly one frame is read: the node's bytes follow it and belong to the RPC client.
                var answer = await RelayWire.ReadAsync(stream, RelayWire.MaxHelloBytes, limit.Token);
                switch (answer)
                {
                    case { Type: RelayFrameType.Refused } refusal:
                        throw new RelayRefusedException(agent.ToString()!, RefusedMessage.Decode(refusal).Reason);
                    case { Type: RelayFrameType.RpcOpened } opened
                        when RpcOpenedMessage.Decode(opened).Problem is { Length: > 0 } problem:
                        throw new RpcConnectionException(
                            $"{node}: the agent at {agent} could not open its RPC socket: {problem}"
                        );
                    case { Type: RelayFrameType.RpcOpened }:
                        return socket!;
                    default:
                        throw new RelayProtocolException(
                            RelayProblem.Unexpected,
                            $"the agent at {agent} answered RpcOpen with {answer?.Type.ToString() ?? "the end of the connection"}"
                        );
                }
            }
            catch (OperationCanceledException) when (!ct.IsCancellationRequested)
            {
                throw new RpcConnectionException(
                    $"{node}: the agent at {agent} did not open an RPC pipe within {timeout.TotalSeconds:0} s"
                );
            }
            catch (SocketException e)
            {
                throw new RpcConnectionException(
                    $"{node}: cannot reach the agent at {agent} ({e.SocketErrorCode}: {e.Message})",
                    e
                );
            }
        }
        catch
        {
            socket?.Dispose();
            throw;
        }
    }
}
