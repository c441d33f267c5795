namespace Lightning.Bench.Swarm.Relay;

/// <summary>What an agent counted about its connections (not its streams).</summary>
/// <param name="Accepted">Connections whose token matched.</param>
/// <param name="Refused">Connections refused (a wrong token, another version).</param>
/// <param name="BadFrames">Bad input by kind; each reset its connection.</param>
/// <param name="RpcPipes">RPC connections piped to a node's socket.</param>
internal sealed record AgentStats(
    long Accepted,
    long Refused,
    IReadOnlyDictionary<RelayProblem, long> BadFrames,
    long FramesWritten,
    long RpcPipes
);
