namespace Lightning.Bench.NodeKinds;

/// <summary>What a run decides about one node's container.</summary>
/// <param name="BitcoindHost">bitcoind's host name on the compose network.</param>
/// <param name="TraceSocket">The node's trace socket inside the container, when the run collects spans; else null.</param>
/// <param name="DevTraceFile">Where the node writes its own trace file (a loss check's ground truth), or null.</param>
public sealed record NodeServiceSettings(
    string Name,
    string ContainerDirectory,
    string BitcoindHost,
    int BitcoindRpcPort,
    string? TraceSocket,
    string? DevTraceFile);
