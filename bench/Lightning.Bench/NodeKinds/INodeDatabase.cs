namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A node's database on the topology's PostgreSQL server (--db postgres), as a history writes into it while the node is
/// stopped: SQL statements run by the server's own psql, answers as unaligned text.
/// </summary>
internal interface INodeDatabase
{
    /// <summary>The database's name on its server, for lines that name it.</summary>
    string Name { get; }

    /// <summary>Runs <paramref name="sql"/> (one transaction when it says so) and returns what psql printed (rows as `a|b`, one a line); an error throws with psql's words.</summary>
    Task<string> QueryAsync(string sql, CancellationToken ct = default);
}

/// <summary>Where a stopped node's history is written: its folder, and its database on the server when it keeps it there (null: in its folder).</summary>
internal sealed record HistoryStore(string NodeDirectory, INodeDatabase? Database = null);
