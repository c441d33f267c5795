namespace Lightning.Bench.NodeKinds;

/// <summary>What a run decides about one node's container.</summary>
/// <param name="BitcoindHost">Where the node reaches bitcoind (loopback: a topology's containers share one network namespace).</param>
/// <param name="Peer">Where the node listens for peers and they reach it. Its port is the node's own within the
/// topology's shared network namespace; a kind that needs more ports (an API) takes Peer.Port + 100·k, k ≥ 1.</param>
/// <param name="TraceSocket">The node's trace socket inside the container, when the run collects spans; else null.</param>
/// <param name="DevTraceFile">Where the node writes its own trace file (a loss check's ground truth), or null.</param>
/// <param name="ConfigFile">Where the node reads the configuration <see cref="INodeKind.Configure"/> makes, when it is not
/// in its folder (a swarm secret under /run/secrets/); null: in its folder, as on one host.</param>
internal sealed record NodeServiceSettings(
    string Name,
    string ContainerDirectory,
    string BitcoindHost,
    int BitcoindRpcPort,
    PeerAddress Peer,
    string? TraceSocket,
    string? DevTraceFile,
    string? ConfigFile = null
)
{
    /// <summary>Options its build gives the node (--node-option), started after the harness's own.</summary>
    public IReadOnlyList<string> Options { get; init; } = [];

    /// <summary>
    /// Its PostgreSQL database (--db postgres): a connection URL to its own database on the topology's server, which
    /// exists once the file <see cref="DatabaseReadyFile"/> is in its folder; null: its own sqlite3 file.
    /// </summary>
    public string? PostgresUrl { get; init; }

    /// <summary>The file a node on PostgreSQL waits for in its folder before it starts.</summary>
    public const string DatabaseReadyFile = "lnbench-database-ready";
}
