using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// The databases of a topology's nodes on its PostgreSQL server (--db postgres): once the server answers, one database
/// per node, then each node's word to start (a file in its folder, which its container waits for).
/// </summary>
internal static class PostgresDatabases
{
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(30);

    public static async Task CreateAsync(
        DockerEngine engine,
        string container,
        IReadOnlyList<string> nodes,
        NodeWaits waits,
        Func<string, string> readyFile,
        CancellationToken ct
    )
    {
        await waits.UntilAsync(
            "the PostgreSQL server to answer",
            async c =>
            {
                var (exit, output) = await PsqlAsync(engine, container, "SELECT 1", c);
                return exit == 0 ? WaitState.Met() : WaitState.NotYet(output.Trim().Split('\n')[^1]);
            },
            ct
        );
        foreach (var node in nodes)
        {
            var (exit, output) = await PsqlAsync(
                engine,
                container,
                $"CREATE DATABASE {ComposeGenerator.DatabaseName(node)}",
                ct
            );
            if (exit != 0)
            {
                throw new InvalidOperationException(
                    $"the PostgreSQL server did not create {node}'s database: {output.Trim()}"
                );
            }
            await File.WriteAllTextAsync(readyFile(node), "", ct);
        }
    }

    /// <summary>One statement through the server's own psql, over the pod's loopback (the server's first start listens on a socket only).</summary>
    private static Task<(long ExitCode, string Output)> PsqlAsync(
        DockerEngine engine,
        string container,
        string sql,
        CancellationToken ct,
        string database = Databases.User,
        TimeSpan? timeout = null
    ) =>
        engine.ExecAsync(
            container,
            [
                "psql",
                "-v",
                "ON_ERROR_STOP=1",
                "-X",
                "-q",
                "-A",
                "-t",
                "-c",
                sql,
                $"postgresql://{Databases.User}:{Databases.Password}@{ComposeGenerator.PodHost}:{Databases.Port}/{database}",
            ],
            null,
            timeout ?? CallTimeout,
            ct
        );

    /// <summary>What psql said of a statement it refused: its error line (the lines after it give context: where), else its last line.</summary>
    internal static string Refusal(string output)
    {
        var lines = output.Trim().Split('\n', StringSplitOptions.TrimEntries);
        return lines.FirstOrDefault(l => l.Contains("ERROR:", StringComparison.Ordinal)) ?? lines[^1];
    }

    /// <summary>A node's database on the server, for what is written into it while the node is stopped (a history).</summary>
    public sealed class NodeDatabase(DockerEngine engine, string container, string name) : INodeDatabase
    {
        /// <summary>How long one statement may take: a history of a million rows is written in one.</summary>
        private static readonly TimeSpan StatementTimeout = TimeSpan.FromMinutes(30);

        public string Name => name;

        public async Task<string> QueryAsync(string sql, CancellationToken ct = default)
        {
            var (exit, output) = await PsqlAsync(engine, container, sql, ct, name, StatementTimeout);
            return exit == 0
                ? output
                : throw new InvalidOperationException(
                    $"the PostgreSQL server refused a statement on {name}: {Refusal(output)}"
                );
        }
    }
}
