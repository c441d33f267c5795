using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Tests;

/// <summary>
/// LND's histories on PostgreSQL are written as a bulk load (<see cref="PostgresBulkCopy"/>): on a real server, the
/// tables' secondary indexes and the UNIQUE constraints no foreign key hangs on are dropped and made again around the
/// rows, and come back exactly as they were defined; those a foreign key hangs on, and primary keys, are never dropped;
/// rows that break a constraint fail the whole copy with the server's words and leave the tables as they were.
/// </summary>
[Trait("Category", "E2E")]
public class PostgresBulkCopyTests
{
    private static readonly IReadOnlyList<string> Tables = ["parents", "attempts", "hops"];

    // The shapes LND's invoice and payment tables have: a primary key, UNIQUE columns, a UNIQUE column foreign keys
    // reference, a UNIQUE pair, plain and partial indexes.
    private const string Schema = """
        CREATE TABLE parents (id BIGSERIAL PRIMARY KEY, hash BYTEA NOT NULL UNIQUE, addr BYTEA UNIQUE,
          state INTEGER NOT NULL, created_at TIMESTAMP NOT NULL);
        CREATE INDEX parents_state_idx ON parents(state);
        CREATE INDEX parents_open_idx ON parents(created_at) WHERE state = 0;
        CREATE TABLE attempts (attempt_index BIGINT NOT NULL,
          parent_id BIGINT NOT NULL REFERENCES parents(id) ON DELETE CASCADE, UNIQUE (attempt_index));
        CREATE INDEX attempts_parent_idx ON attempts(parent_id);
        CREATE TABLE hops (id BIGSERIAL PRIMARY KEY,
          attempt_index BIGINT NOT NULL REFERENCES attempts(attempt_index) ON DELETE CASCADE, hop INTEGER NOT NULL,
          UNIQUE (attempt_index, hop));
        INSERT INTO parents (hash, addr, state, created_at) VALUES (sha256('0'), sha256('a0'), 1, now());
        INSERT INTO attempts VALUES (1, 1);
        INSERT INTO hops (attempt_index, hop) VALUES (1, 0);
        """;

    // Rows after the table's last (its ids from after + 1), each with a hash of its own unless told.
    private static string Rows(long after, long n, string hash = "sha256(convert_to(g::text, 'UTF8'))") =>
        $"""
            INSERT INTO parents (id, hash, addr, state, created_at)
              SELECT {after} + g, {hash}, sha256(convert_to('a' || g, 'UTF8')), g % 2, now() FROM generate_series(1, {n}) g;
            INSERT INTO attempts SELECT {after} + g, {after} + g FROM generate_series(1, {n}) g;
            INSERT INTO hops (id, attempt_index, hop) SELECT {after} + g, {after} + g, 0 FROM generate_series(1, {n}) g;
            """;

    // Every index and constraint of the tables as the server defines it, and any index not valid.
    private const string Definitions = """
        SELECT indexdef FROM pg_indexes WHERE tablename IN ('parents', 'attempts', 'hops')
        UNION ALL
        SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
          WHERE conrelid::regclass::text IN ('parents', 'attempts', 'hops')
        UNION ALL
        SELECT 'invalid ' || indexrelid::regclass FROM pg_index WHERE NOT indisvalid
        ORDER BY 1
        """;

    // Each index's relation: a new one when it was made again.
    private const string Relations = """
        SELECT indexname || ' ' || (quote_ident(indexname))::regclass::oid FROM pg_indexes
          WHERE tablename IN ('parents', 'attempts', 'hops')
        """;

    [SkippableFact]
    public async Task Indexes_and_constraints_come_back_as_they_were_defined_and_a_duplicate_fails_the_whole_copy()
    {
        var image = Requirements.PostgresImage();
        Requirements.Docker();
        using var engine = new Lightning.Bench.Docker.DockerEngine();
        var runId = $"test-{Guid.NewGuid():N}"[..16];
        try
        {
            var db = await ServerAsync(engine, image, runId);
            await db.QueryAsync(Schema);
            var before = Lines(await db.QueryAsync(Definitions));
            var relationsBefore = RelationsOf(await db.QueryAsync(Relations));

            await db.QueryAsync(PostgresBulkCopy.Sql(Tables, Rows(1, 5000)));
            await db.QueryAsync(PostgresBulkCopy.VacuumSql(Tables));

            Assert.Equal("5001|5001|5001", (await db.QueryAsync(Counts)).Trim());
            // The same definitions, every index valid ...
            var after = Lines(await db.QueryAsync(Definitions));
            Assert.Equal(before, after);
            var relations = RelationsOf(await db.QueryAsync(Relations));
            Assert.Equal(9, relations.Count);
            Assert.Equal(relationsBefore.Keys.Order(), relations.Keys.Order());
            // ... the UNIQUE constraints no foreign key references and the secondary indexes made again (new relations),
            string[] remade = ["parents_hash_key", "parents_addr_key", "parents_state_idx", "parents_open_idx"];
            foreach (var index in remade.Concat(["attempts_parent_idx", "hops_attempt_index_hop_key"]))
            {
                Assert.NotEqual(relationsBefore[index], relations[index]);
            }
            // ... and the primary keys and the UNIQUE a foreign key references kept as they were.
            foreach (var index in new[] { "parents_pkey", "hops_pkey", "attempts_attempt_index_key" })
            {
                Assert.Equal(relationsBefore[index], relations[index]);
            }

            // Copies that share a hash break its UNIQUE when it is made again: nothing of them stays.
            var duplicate = await Assert.ThrowsAsync<InvalidOperationException>(() =>
                db.QueryAsync(PostgresBulkCopy.Sql(Tables, Rows(5001, 10, hash: "sha256('same')")))
            );
            Assert.Contains("parents_hash_key", duplicate.Message);
            Assert.Equal("5001|5001|5001", (await db.QueryAsync(Counts)).Trim());
            Assert.Equal(after, Lines(await db.QueryAsync(Definitions)));
            Assert.Equal(relations, RelationsOf(await db.QueryAsync(Relations)));
        }
        finally
        {
            await RunResources.Of(engine, runId).RemoveAsync();
        }
    }

    private const string Counts =
        "SELECT (SELECT count(*) FROM parents) || '|' || (SELECT count(*) FROM attempts) || '|' || (SELECT count(*) FROM hops)";

    private static string[] Lines(string output) =>
        output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static Dictionary<string, string> RelationsOf(string output) =>
        Lines(output).Select(l => l.Split(' ')).ToDictionary(p => p[0], p => p[1]);

    /// <summary>A server from the image, answering, with a database of the test's own on it.</summary>
    private static async Task<PostgresDatabases.NodeDatabase> ServerAsync(
        Lightning.Bench.Docker.DockerEngine engine,
        string image,
        string runId
    )
    {
        var id = await engine.CreateContainerAsync(
            $"{runId}-postgres",
            new CreateContainerParameters
            {
                Image = image,
                Cmd = ["postgres", "-c", $"listen_addresses={ComposeGenerator.PodHost}"],
                Env =
                [
                    $"POSTGRES_USER={Databases.User}",
                    $"POSTGRES_PASSWORD={Databases.Password}",
                    $"POSTGRES_DB={Databases.User}",
                ],
                Labels = RunLabels.For(runId).ToDictionary(),
                HostConfig = new HostConfig { NetworkMode = "none", ShmSize = 256L << 20 },
            }
        );
        await engine.StartContainerAsync(id);
        var server = new PostgresDatabases.NodeDatabase(engine, id, Databases.User);
        await Wait.UntilAsync(
            "the PostgreSQL server to answer",
            async _ =>
            {
                try
                {
                    await server.QueryAsync("SELECT 1");
                    return WaitState.Met();
                }
                catch (InvalidOperationException e)
                {
                    return WaitState.NotYet(e.Message);
                }
            },
            TimeSpan.FromMinutes(2)
        );
        await server.QueryAsync("CREATE DATABASE bulk");
        return new PostgresDatabases.NodeDatabase(engine, id, "bulk");
    }
}

/// <summary>A statement the server refused is told by psql's error line, not the context lines after it.</summary>
[Trait("Category", "Unit")]
public class PostgresRefusalTests
{
    [Fact]
    public void The_error_line_is_told_and_without_one_the_last_line()
    {
        Assert.Equal(
            "psql:<stdin>:40: ERROR:  could not create unique index \"invoices_hash_key\"",
            PostgresDatabases.Refusal(
                """
                psql:<stdin>:40: ERROR:  could not create unique index "invoices_hash_key"
                DETAIL:  Key (hash)=(\x01) is duplicated.
                CONTEXT:  SQL statement "ALTER TABLE invoices ADD CONSTRAINT invoices_hash_key UNIQUE (hash)"
                PL/pgSQL function inline_code_block line 1 at EXECUTE
                """
            )
        );
        Assert.Equal(
            "psql: error: connection to server failed",
            PostgresDatabases.Refusal("\npsql: error: connection to server failed\n")
        );
    }
}
