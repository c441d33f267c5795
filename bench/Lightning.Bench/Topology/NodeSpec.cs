namespace Lightning.Bench.Topology;

/// <summary>A Lightning node of a topology: its name (also its compose service and host name), image and node kind.</summary>
/// <param name="Kind">The implementation (a node kind's name): Core Lightning unless the build says otherwise.</param>
/// <param name="Placement">On a swarm: run this node on a host labelled lnbench.placement=VALUE instead of the topology's
/// host (a topology too large for one host); the time between hosts is then part of what is measured. Null: with the rest of its topology.</param>
internal sealed record NodeSpec(string Name, string Image, string Kind = NodeSpec.DefaultKind, string? Placement = null)
{
    /// <summary>The kind of a node no build names another for: Core Lightning.</summary>
    public const string DefaultKind = "cln";

    /// <summary>Options its build gives the node's program (--node-option), after the harness's own.</summary>
    public IReadOnlyList<string> Options { get; init; } = [];

    /// <summary>Rows of past activity the node is given before the measured window (its kind's <see cref="NodeKinds.INodeHistory"/>); 0: none.</summary>
    public long HistoryRows { get; init; }

    /// <summary>Where the node keeps its database: <see cref="Databases.Sqlite"/> (its own file, the default) or <see cref="Databases.Postgres"/> (the topology's PostgreSQL server).</summary>
    public string Database { get; init; } = Databases.Sqlite;

    /// <summary>The share (%) of the run's mainnet graph (--graph) the node is given in its gossip store before the measured window; 0: none.</summary>
    public int GraphPercent { get; init; }
}

/// <summary>The databases a node can keep its state in (--db).</summary>
internal static class Databases
{
    public const string Sqlite = "sqlite3";
    public const string Postgres = "postgres";

    public static readonly IReadOnlyList<string> All = [Sqlite, Postgres];

    /// <summary>The topology's PostgreSQL server: its compose service and the login the nodes use on the pod's loopback.</summary>
    public const string ServerName = "postgres";
    public const string User = "lnbench";
    public const string Password = "lnbench";
    public const int Port = 5432;
}
