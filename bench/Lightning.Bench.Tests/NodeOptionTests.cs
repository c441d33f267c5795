using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>A build is an image plus the options it starts its nodes with; a release's age says what it can run.</summary>
[Trait("Category", "Unit")]
public class NodeOptionTests
{
    private const string Image = "lnbench-local/cln:v26.06.6-O2";

    [Fact]
    public void A_node_option_belongs_to_its_build_or_to_every_build_and_is_part_of_the_builds_identity()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            $"base={Image}",
            "--build",
            $"nagle={Image}",
            "--node-option",
            "nagle:--dev-keep-nagle",
            "--node-option",
            "--askrene-max-threads=1",
        ]);

        var builds = options.Builds.ToDictionary(b => b.Name);
        Assert.Equal(["--askrene-max-threads=1"], builds["base"].NodeOptions);
        Assert.Equal(["--dev-keep-nagle", "--askrene-max-threads=1"], builds["nagle"].NodeOptions);
        Assert.Equal($"nagle={Image} with --dev-keep-nagle --askrene-max-threads=1", builds["nagle"].ToString());
        Assert.Equal(builds["nagle"].NodeOptions, builds["nagle"].Node("alice").Options);

        // The node's command line ends with them, after the harness's own.
        var topology = AlicePaysBob.TopologyFor(builds["nagle"], "bitcoind:x");
        var layout = new RunLayout("/tmp/lnb/x");
        var file = ComposeGenerator.Generate(
            topology,
            new ComposeRunSettings(
                "p",
                layout,
                null,
                new Dictionary<string, string>(),
                TraceSockets: false,
                DevTraceFile: false
            ),
            NodeKindCatalog.Default.LoadFragments(),
            NodeKindCatalog.Default
        );
        Assert.Equal(["--dev-keep-nagle", "--askrene-max-threads=1"], file.Services["alice"].Command![^2..]);
    }

    [Theory]
    [InlineData("--node-option", "nagle:--dev-keep-nagle", "there is no build 'nagle'")]
    [InlineData("--node-option", "base:dev-keep-nagle", "is not [BUILD:]--OPTION[=VALUE]")]
    [InlineData("--node-option", "--", "is not [BUILD:]--OPTION[=VALUE]")]
    public void A_node_option_that_names_no_build_or_is_no_option_is_refused_in_one_line(
        string option,
        string value,
        string expected
    )
    {
        var e = Assert.Throws<UsageException>(() =>
            OptionParser.Parse(["AlicePaysBob", "--build", $"base={Image}", option, value])
        );
        Assert.Contains(expected, e.Message);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void A_database_belongs_to_its_build_or_to_every_build_and_is_part_of_the_builds_identity()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            $"lite={Image}",
            "--build",
            $"pg={Image}",
            "--db",
            "pg:postgres",
        ]);

        var builds = options.Builds.ToDictionary(b => b.Name);
        Assert.Equal((Databases.Sqlite, Databases.Postgres), (builds["lite"].Database, builds["pg"].Database));
        Assert.Equal($"pg={Image} on postgres", builds["pg"].ToString());
        Assert.Equal(Databases.Postgres, builds["pg"].Node("bob").Database);
        Assert.True(options.UsesPostgres);
        Assert.All(
            OptionParser
                .Parse(["AlicePaysBob", "--build", $"a={Image}", "--build", $"b={Image}", "--db", "postgres"])
                .Builds,
            b => Assert.Equal(Databases.Postgres, b.Database)
        );
        Assert.False(OptionParser.Parse(["AlicePaysBob"]).UsesPostgres);
        Assert.Contains("--wallet", new CoreLightningKind().RefuseOption("--wallet=sqlite3:///x"));
    }

    [Theory]
    [InlineData("pg:postgres", "", "there is no build 'pg'")]
    [InlineData("mysql", "", "--db is one of sqlite3, postgres, not 'mysql'")]
    [InlineData("postgres", "--swarm", "--db postgres runs on one host, with times measured: drop --swarm")]
    [InlineData("postgres", "--instructions", "drop --instructions")]
    public void A_database_that_names_no_build_or_cannot_run_is_refused_in_one_line(
        string value,
        string other,
        string expected
    )
    {
        string[] args = ["AlicePaysBob", "--build", $"base={Image}", "--db", value];
        var e = Assert.Throws<UsageException>(() => OptionParser.Parse(other.Length == 0 ? args : [.. args, other]));
        Assert.Contains(expected, e.Message);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void A_probe_can_be_one_builds_to_measure_what_it_costs()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            $"plain={Image}",
            "--build",
            $"probed={Image}",
            "--probe",
            "probed:100ms",
        ]);
        Assert.Equal(("probed", TimeSpan.FromMilliseconds(100)), (options.ProbeBuild, options.ProbeInterval!.Value));
        Assert.Null(OptionParser.Parse(["AlicePaysBob", "--probe", "100"]).ProbeBuild);
        Assert.Contains(
            "--probe nope:…: there is no build 'nope'",
            Assert
                .Throws<UsageException>(() =>
                    OptionParser.Parse(["AlicePaysBob", "--build", $"plain={Image}", "--probe", "nope:100"])
                )
                .Message
        );
    }

    [Fact]
    public void A_hub_takes_a_history_of_its_own_but_not_a_payees()
    {
        // HubRoutes has no history unless asked (its default is 0); asked, the hub is given it, as LargeNode's carol.
        Assert.False(OptionParser.Parse(["HubRoutes"]).GivesHistory);
        Assert.True(OptionParser.Parse(["LargeNode"]).GivesHistory);
        var hub = OptionParser.Parse(["HubRoutes", "--history", "0,50000", "--history-of", "forwards"]);
        Assert.Equal([0, 50_000], hub.HistorySizes);
        var topology = Lightning.Bench.Scenarios.HubRoutes.TopologyFor(BuildSpec.FromImage(Image), "btc", 4, 1, 50_000);
        Assert.Equal(50_000, topology.Node("hub").HistoryRows);
        Assert.All(topology.Nodes.Where(n => n.Name != "hub"), n => Assert.Equal(0, n.HistoryRows));
        Assert.Contains(
            "--history-of invoices is a payee's history and the hub pays nobody",
            Assert
                .Throws<UsageException>(() =>
                    OptionParser.Parse(["HubRoutes", "--history", "1000", "--history-of", "invoices"])
                )
                .Message
        );
    }

    [Fact]
    public void Snapshots_are_kept_in_the_users_cache_unless_told_where_or_off()
    {
        Assert.Equal(HarnessOptions.DefaultSnapshotDirectory, OptionParser.Parse(["LargeNode"]).SnapshotDirectory);
        Assert.EndsWith(
            Path.Combine(".cache", "lightning-bench", "snapshots"),
            HarnessOptions.DefaultSnapshotDirectory
        );
        Assert.Equal(
            "/srv/kept",
            OptionParser.Parse(["LargeNode", "--snapshots", "/srv/kept", "--history", "10"]).SnapshotDirectory
        );
        Assert.Null(OptionParser.Parse(["LargeNode", "--snapshots", "off"]).SnapshotDirectory);
        Assert.True(OptionParser.Parse(["--clean-snapshots"]).CleanSnapshots);
    }

    [Theory]
    [InlineData("--network=bitcoin")]
    [InlineData("--lightning-dir=/x")]
    [InlineData("--bitcoin-rpcpassword=x")]
    [InlineData("--rpc-file-mode=0600")]
    [InlineData("--addr=0.0.0.0:1")]
    public void Options_the_harness_owns_are_refused(string option) =>
        Assert.Contains("is the harness's", new CoreLightningKind().RefuseOption(option));

    [Fact]
    public void Options_a_build_may_give_are_not_refused()
    {
        var kind = new CoreLightningKind();
        Assert.Null(kind.RefuseOption("--dev-keep-nagle"));
        Assert.Null(kind.RefuseOption("--askrene-max-threads=1"));
    }

    [Theory]
    [InlineData("v26.06.6", 26, 6)]
    [InlineData("v25.05", 25, 5)]
    [InlineData("v24.08.2-modded", 24, 8)]
    [InlineData("25.12.1", 25, 12)]
    public void A_release_is_its_year_and_month(string text, int year, int month) =>
        Assert.Equal(new ReleaseVersion(year, month), ReleaseVersion.Parse(text));

    [Fact]
    public async Task A_release_too_old_is_refused_an_older_one_runs_without_what_it_lacks_and_an_unknown_option_stops_the_run()
    {
        var kind = new CoreLightningKind();
        var asked = new List<string>();
        Task<(int, string)> Help(IReadOnlyList<string> command, CancellationToken ct)
        {
            asked.Add(string.Join(' ', command));
            return Task.FromResult((0, "--dev-keep-nagle   keep Nagle on\n--askrene-max-threads=<arg>"));
        }
        static IReadOnlyDictionary<string, string> Versions(string v) =>
            new Dictionary<string, string> { ["lightningd"] = v };

        var tooOld = await kind.CheckImageAsync(Versions("v24.02.2"), [], Help);
        Assert.Contains("older than v24.05", tooOld.Refusal);

        var old = await kind.CheckImageAsync(Versions("v24.08.2"), [], Help);
        Assert.Null(old.Refusal);
        Assert.Contains(old.Notes, n => n.Contains("payments use pay"));
        Assert.Contains(old.Notes, n => n.Contains("no trace socket"));
        Assert.Empty(asked);

        var current = await kind.CheckImageAsync(Versions("v26.06.6"), ["--dev-keep-nagle"], Help);
        Assert.Equal(ImageCheck.Fine.Notes, current.Notes);
        Assert.Null(current.Refusal);
        Assert.Equal(["lightningd --developer --help"], asked);

        var unknown = await kind.CheckImageAsync(Versions("v25.05"), ["--dev-keep-nagle", "--no-such-thing=1"], Help);
        Assert.Equal(
            "its lightningd (v25.05) does not know --no-such-thing (not in lightningd --developer --help): drop the option or choose a build that has it",
            unknown.Refusal
        );
    }
}
