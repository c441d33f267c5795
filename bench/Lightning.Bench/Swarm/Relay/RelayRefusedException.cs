namespace Lightning.Bench.Swarm.Relay;

/// <summary>The agent refused the harness (a wrong token, another protocol version): retrying would not help.</summary>
internal sealed class RelayRefusedException(string endpoint, string reason)
    : Exception($"the agent at {endpoint} refused the connection: {reason}")
{
    public string Reason { get; } = reason;
}
