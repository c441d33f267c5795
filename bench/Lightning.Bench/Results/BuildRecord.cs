namespace Lightning.Bench.Results;

internal sealed record BuildRecord(string Name, string Image, IReadOnlyDictionary<string, string> NodeImages)
{
    /// <summary>The node kind of every node the build does not name in <see cref="NodeKinds"/>.</summary>
    public string Kind { get; init; } = Topology.NodeSpec.DefaultKind;

    public IReadOnlyDictionary<string, string> NodeKinds { get; init; } = new Dictionary<string, string>();

    /// <summary>Options the build gives its nodes (--node-option): part of what the build is.</summary>
    public IReadOnlyList<string> NodeOptions { get; init; } = [];

    /// <summary>Where its nodes kept their databases (--db): sqlite3 or postgres.</summary>
    public string Database { get; init; } = Topology.Databases.Sqlite;
}
