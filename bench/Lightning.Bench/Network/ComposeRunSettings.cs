using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>What one run decides about its compose file, beyond the topology: names, folders, labels, the container user.</summary>
/// <param name="User">uid:gid the containers run as (so files in the bind mounts belong to the harness user), or null for the image's user.</param>
/// <param name="Labels">Put on every container and the network, so cleanup can find them.</param>
/// <param name="TraceSockets">Whether each node whose kind has a trace source is told to send its spans to its own socket.</param>
/// <param name="DevTraceFile">Whether each node also writes Core Lightning's trace file (ground truth for loss checks).</param>
/// <param name="Valgrind">With --instructions: the host's Valgrind, which every Lightning node runs under.</param>
internal sealed record ComposeRunSettings(
    string ProjectName,
    RunLayout Layout,
    string? User,
    IReadOnlyDictionary<string, string> Labels,
    bool TraceSockets,
    bool DevTraceFile = false,
    Instructions.HostValgrind? Valgrind = null
)
{
    /// <summary>The PostgreSQL server's image (--postgres-image), for nodes on --db postgres.</summary>
    public string PostgresImage { get; init; } = Options.HarnessOptions.DefaultPostgresImage;
}
