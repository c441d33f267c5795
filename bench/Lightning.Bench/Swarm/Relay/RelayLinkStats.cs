namespace Lightning.Bench.Swarm.Relay;

/// <summary>The harness's connection to one agent.</summary>
/// <param name="Connections">Connections the agent welcomed (1 + reconnections).</param>
/// <param name="Sessions">Agent sessions seen (more than one: the agent restarted).</param>
/// <param name="BadFrames">Bad input from the agent by kind; each reset the connection.</param>
internal sealed record RelayLinkStats(
    long Connections,
    long Sessions,
    IReadOnlyDictionary<RelayProblem, long> BadFrames
);
