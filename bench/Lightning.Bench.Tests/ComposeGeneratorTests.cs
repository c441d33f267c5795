using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class ComposeGeneratorTests
{
    private static readonly ComposeFragments Fragments = NodeKindCatalog.Default.LoadFragments();

    private static ComposeRunSettings Settings(bool traces = false) =>
        new(
            "lnbench-golden-1",
            new RunLayout("/tmp/lnb/lnbench-golden-1"),
            "1000:1000",
            new Dictionary<string, string> { [RunLabels.Run] = "golden", [RunLabels.OwnerPid] = "42" },
            traces
        );

    [Fact]
    public void AlicePaysBob_matches_the_golden_file()
    {
        var topology = AlicePaysBob.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "bitcoin/bitcoin:30.2"
        );
        var yaml = ComposeYaml.Serialize(ComposeGenerator.Generate(topology, Settings(), Fragments));
        Golden.AssertMatches("alice-pays-bob.yml", yaml);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public void AlicePaysBobViaCarols_matches_the_golden_file(int carols)
    {
        var topology = AlicePaysBobViaCarols.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "bitcoin/bitcoin:30.2",
            carols
        );
        Assert.Equal(carols + 1, topology.Channels.Count);
        Golden.AssertMatches(
            $"alice-pays-bob-via-{carols}-carols.yml",
            ComposeYaml.Serialize(ComposeGenerator.Generate(topology, Settings(), Fragments))
        );
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public void AlicesPayBob_matches_the_golden_file(int alices)
    {
        var topology = AlicesPayBob.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "bitcoin/bitcoin:30.2",
            alices
        );
        Assert.Equal(alices, topology.Flows.Count);
        Golden.AssertMatches(
            $"{alices}-alices-pay-bob.yml",
            ComposeYaml.Serialize(ComposeGenerator.Generate(topology, Settings(), Fragments))
        );
    }

    [Fact]
    public void A_mixed_build_puts_one_node_on_another_image()
    {
        var build = new BuildSpec("mixed", "cln:a", new Dictionary<string, string> { ["carol-1"] = "cln:b" });
        var file = ComposeGenerator.Generate(AlicePaysBobViaCarols.TopologyFor(build, "btc", 2), Settings(), Fragments);
        Assert.Equal("cln:b", file.Services["carol-1"].Image);
        Assert.Equal("cln:a", file.Services["carol-2"].Image);
        Assert.Equal("cln:a", file.Services["alice"].Image);
    }

    [Fact]
    public void Every_service_is_labelled_runs_as_the_host_user_publishes_nothing_beyond_loopback_and_nodes_share_bitcoinds_namespace()
    {
        var topology = AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc");
        var file = ComposeGenerator.Generate(topology, Settings(), Fragments);

        Assert.Equal(["bitcoind", "alice", "bob"], file.Services.Keys);
        foreach (var (name, service) in file.Services)
        {
            Assert.Equal("golden", service.Labels![RunLabels.Run]);
            Assert.Equal(name, service.Labels[ComposeGenerator.NodeLabel]);
            Assert.Equal("1000:1000", service.User);
            Assert.Null(service.Privileged);
            Assert.All(service.Ports ?? [], p => Assert.StartsWith("127.0.0.1:", p));
            Assert.Equal([$"/tmp/lnb/lnbench-golden-1/{name}:/lnb"], service.Volumes);
        }
        // No network of its own: bitcoind is on the default bridge, every node in bitcoind's network namespace.
        Assert.Null(file.Networks);
        Assert.Equal("bridge", file.Services["bitcoind"].NetworkMode);
        Assert.Equal("service:bitcoind", file.Services["alice"].NetworkMode);
        Assert.Equal("service:bitcoind", file.Services["bob"].NetworkMode);
        Assert.Contains("--addr=0.0.0.0:9735", file.Services["alice"].Command!);
        Assert.Contains("--addr=0.0.0.0:9736", file.Services["bob"].Command!);
    }

    [Fact]
    public void A_build_on_postgres_gets_the_topologys_server_in_the_pod_and_each_node_its_own_database_once_told()
    {
        var fragments = ComposeFragments.Load(
            null,
            false,
            [.. NodeKindCatalog.Default.FragmentFiles, ComposeFragments.PostgresFile]
        );
        var build = BuildSpec.FromImage("cln") with { Database = Databases.Postgres };
        var file = ComposeGenerator.Generate(
            AlicePaysBobViaCarols.TopologyFor(build, "btc", 1),
            Settings() with
            {
                PostgresImage = "postgres:17",
            },
            fragments
        );

        var server = file.Services["postgres"];
        Assert.Equal("postgres:17", server.Image);
        Assert.Equal("service:bitcoind", server.NetworkMode);
        Assert.Equal("golden", server.Labels![RunLabels.Run]);
        Assert.Equal("postgres", server.Labels[ComposeGenerator.NodeLabel]);
        // The image's own user owns its data, which stays in the container; it listens on the pod's loopback only.
        Assert.Null(server.User);
        Assert.Null(server.Volumes);
        Assert.Contains("listen_addresses=127.0.0.1", server.Command!);
        Assert.Equal(("lnbench", "lnbench"), (server.Environment!["POSTGRES_USER"], server.Environment["POSTGRES_DB"]));
        var carol = file.Services["carol-1"];
        Assert.Contains("--wallet=postgres://lnbench:lnbench@127.0.0.1:5432/carol_1", carol.Command!);
        Assert.Equal("/bin/sh", carol.Entrypoint![0]);
        Assert.Contains($"until [ -e /lnb/{NodeServiceSettings.DatabaseReadyFile} ]", carol.Entrypoint[2]);
        Assert.EndsWith("exec lightningd \"$$@\"", carol.Entrypoint[2]);
        // An LND build on postgres: its native SQL store on its own database, a bounded pool, and it waits for both words.
        var lnd = ComposeGenerator
            .Generate(
                AlicePaysBob.TopologyFor(
                    BuildSpec.FromImage("lnd") with
                    {
                        Kind = "lnd",
                        KindKnown = true,
                        Database = Databases.Postgres,
                    },
                    "btc"
                ),
                Settings() with
                {
                    PostgresImage = "postgres:17",
                },
                fragments
            )
            .Services["alice"];
        Assert.Contains("--db.backend=postgres", lnd.Command!);
        Assert.Contains(
            "--db.postgres.dsn=postgres://lnbench:lnbench@127.0.0.1:5432/alice?sslmode=disable",
            lnd.Command!
        );
        Assert.Contains("--db.use-native-sql", lnd.Command!);
        Assert.Contains($"--db.postgres.maxconnections={NodeKinds.Lnd.LndKind.PostgresConnections}", lnd.Command!);
        Assert.Contains(
            $"[ -e /lnb/{NodeKinds.INodeKind.ChainReadyFile} ] && [ -e /lnb/{NodeServiceSettings.DatabaseReadyFile} ]",
            lnd.Entrypoint![2]
        );
        // A build on sqlite3 has neither.
        var lite = ComposeGenerator.Generate(
            AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc"),
            Settings(),
            fragments
        );
        Assert.DoesNotContain("postgres", lite.Services.Keys);
        Assert.DoesNotContain(lite.Services["alice"].Command!, c => c.StartsWith("--wallet", StringComparison.Ordinal));
    }

    [Fact]
    public void Credentials_never_appear_in_the_compose_file()
    {
        var topology = AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc");
        var yaml = ComposeYaml.Serialize(ComposeGenerator.Generate(topology, Settings(), Fragments));
        Assert.DoesNotContain("rpcpassword", yaml);
        Assert.DoesNotContain("rpcauth", yaml);
    }

    [Fact]
    public void Trace_sockets_point_each_node_at_its_own_mount()
    {
        var topology = AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc");
        var file = ComposeGenerator.Generate(topology, Settings(traces: true), Fragments);
        Assert.Equal("/lnb/trace.sock", file.Services["alice"].Environment!["CLN_TRACE_SOCKET"]);
        Assert.Null(file.Services["bitcoind"].Environment);
    }

    [Fact]
    public void A_trace_check_points_Core_Lightning_at_its_kinds_trace_file_in_its_own_mount()
    {
        var topology = AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc");
        var file = ComposeGenerator.Generate(topology, Settings(traces: true) with { DevTraceFile = true }, Fragments);
        Assert.Equal("/lnb/trace-events", file.Services["alice"].Environment!["CLN_DEV_TRACE_FILE"]);
        Assert.False(
            ComposeGenerator
                .Generate(topology, Settings(traces: true), Fragments)
                .Services["alice"]
                .Environment!.ContainsKey("CLN_DEV_TRACE_FILE")
        );
    }

    [Fact]
    public void Dollar_signs_are_escaped_for_compose_interpolation()
    {
        var settings = Settings() with { Layout = new RunLayout("/tmp/lnb/a$b") };
        var file = ComposeGenerator.Generate(
            AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc"),
            settings,
            Fragments
        );
        Assert.Equal(["/tmp/lnb/a$$b/alice:/lnb"], file.Services["alice"].Volumes);
    }

    [Fact]
    public void Generation_does_not_change_the_fragments()
    {
        var before = ComposeYaml.Serialize(
            new ComposeFile { Services = new() { ["cln"] = Fragments.For(CoreLightningKind.Fragment) } }
        );
        ComposeGenerator.Generate(
            AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln"), "btc"),
            Settings(traces: true),
            Fragments
        );
        var after = ComposeYaml.Serialize(
            new ComposeFile { Services = new() { ["cln"] = Fragments.For(CoreLightningKind.Fragment) } }
        );
        Assert.Equal(before, after);
    }

    [Fact]
    public void A_fragment_with_an_unknown_key_is_rejected_with_its_path()
    {
        var dir = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;
        File.WriteAllText(
            Path.Combine(dir, ComposeFragments.BitcoindFile),
            "services:\n  bitcoind:\n    entrypoint: [bitcoind]\n    comand: [-regtest]\n"
        );
        File.Copy(
            Path.Combine(ComposeFragments.DefaultDirectory, CoreLightningKind.Fragment),
            Path.Combine(dir, CoreLightningKind.Fragment)
        );
        var error = Assert.Throws<InvalidDataException>(() => NodeKindCatalog.Default.LoadFragments(dir));
        Assert.Contains(ComposeFragments.BitcoindFile, error.Message);
        Assert.Contains("comand", error.Message);
    }
}
