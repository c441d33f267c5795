using System.Net.Sockets;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>The harness's connection to an agent, as the agent holds it: closed once, by whichever side ends it first.</summary>
internal sealed class AgentConnection(TcpClient client)
{
    private int closed;

    public NetworkStream Stream { get; } = client.GetStream();

    public bool Closed => Volatile.Read(ref closed) == 1;

    public void Close()
    {
        if (Interlocked.Exchange(ref closed, 1) == 0)
        {
            client.Dispose();
        }
    }
}
