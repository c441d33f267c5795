namespace Lightning.Bench.Swarm.Relay;

/// <summary>One node's spans on their way through the agent, as the harness accounts for them.</summary>
/// <param name="AgentReceived">Datagrams the agent's socket received (over every agent session).</param>
/// <param name="AgentDropped">Of those, not queued: the agent's queue was full.</param>
/// <param name="Relayed">Span frames the agent queued (each numbered).</param>
/// <param name="Arrived">Span frames that reached the harness (duplicates left out).</param>
/// <param name="Duplicates">Frames seen twice (a write that failed after its bytes left, sent again): kept once.</param>
/// <param name="LostInRelay">Relayed, never arrived: written to a connection that broke. Exact when <paramref name="Exact"/>.</param>
/// <param name="Sessions">Agent sessions the stream lived through (more than one: the agent restarted; what it held then
/// and received after its last counts is not countable here, only by a trace check).</param>
/// <param name="Exact">The last session's final counts arrived, so every figure of that session is exact.</param>
internal sealed record RelayNodeStats(
    string Node,
    long AgentReceived,
    long AgentDropped,
    long Relayed,
    long Arrived,
    long Duplicates,
    long LostInRelay,
    int Sessions,
    bool Exact
);
