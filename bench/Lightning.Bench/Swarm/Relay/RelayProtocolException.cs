namespace Lightning.Bench.Swarm.Relay;

/// <summary>Bad input from the network: counted by its <see cref="Problem"/>, and the connection is reset; never a crash.</summary>
internal sealed class RelayProtocolException(RelayProblem problem, string message) : Exception(message)
{
    public RelayProblem Problem { get; } = problem;
}
