namespace Lightning.Bench.Swarm.Relay;

/// <summary>One node's trace socket as its agent counts it.</summary>
/// <param name="Received">Datagrams the agent's socket received (what the local collector counts as received).</param>
/// <param name="Dropped">Datagrams received but not queued for the harness: the agent's queue was full (a long disconnection).</param>
/// <param name="Relayed">Span frames queued for the harness: the last sequence number given.</param>
internal sealed record RelayStreamCounters(
    string Topology,
    string Node,
    long Received,
    long Dropped,
    long Relayed,
    long Bytes,
    int KernelBufferBytes
);
