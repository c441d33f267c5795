using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class OptionParserTests
{
    [Fact]
    public void No_arguments_mean_the_default_scenario_and_images()
    {
        var options = OptionParser.Parse([]);
        Assert.Equal("AlicePaysBob", options.Scenario);
        Assert.Equal("elementsproject/lightningd:v26.06.6", options.ClnImage);
        Assert.Equal(HarnessOptions.DefaultBitcoindImage, options.BitcoindImage);
        Assert.Empty(options.Sweeps);
        Assert.Equal(
            [1, 4, 10],
            ScenarioCatalog.Default.Parameters.Single(p => p.Name == "Concurrency").ValuesFrom(options.Sweeps)
        );
        Assert.Equal("lightningd:v26.06.6", Assert.Single(options.Builds).Name);
    }

    [Fact]
    public void Parameters_images_and_benchmarkdotnet_arguments_are_taken_from_the_command_line()
    {
        var options = OptionParser.Parse([
            "alicepaysbob",
            "--concurrency",
            "1,4,7,10",
            "--iterations=10",
            "--cln-image",
            "mycln:dev",
            "--bitcoind-image",
            "lnbench-local/bitcoind:31.99",
            "--no-pull",
            "--",
            "--memory",
            "--filter",
            "*",
        ]);
        Assert.Equal("AlicePaysBob", options.Scenario);
        Assert.Equal([1, 4, 7, 10], options.Sweeps["Concurrency"]);
        Assert.Equal(10, options.Iterations);
        Assert.Equal("mycln:dev", options.ClnImage);
        Assert.Equal("lnbench-local/bitcoind:31.99", options.BitcoindImage);
        Assert.False(options.Pull);
        Assert.Equal(["--memory", "--filter", "*"], options.BenchmarkDotNetArguments);
    }

    [Theory]
    [InlineData(new[] { "NoSuchScenario" }, "unknown scenario 'NoSuchScenario'")]
    [InlineData(
        new[] { "--publish", "site", "--order", "version", "a.zip", "b.zip" },
        "'a.zip' looks like a run, not a scenario: runs go right after --publish SITE"
    )]
    [InlineData(new[] { "--concurrency", "0" }, "--concurrency 0 is out of range")]
    [InlineData(new[] { "--concurrency", "-3" }, "--concurrency -3 is out of range")]
    [InlineData(new[] { "--concurrency", "four" }, "--concurrency 'four' is not a whole number")]
    [InlineData(new[] { "--concurrency", "100000" }, "--concurrency 100000 is out of range")]
    [InlineData(new[] { "--concurrency", "1,,4" }, "has an empty item")]
    [InlineData(new[] { "--concurrency", "4,4" }, "lists 4 twice")]
    [InlineData(new[] { "--concurrency" }, "--concurrency needs a value")]
    [InlineData(new[] { "--iterations", "0" }, "--iterations 0 is out of range")]
    [InlineData(new[] { "--probe", "5" }, "--probe 5 is out of range")]
    [InlineData(new[] { "--probe", "1s" }, "--probe '1s' is not a whole number")]
    [InlineData(new[] { "--cln-image", "" }, "is not an image reference")]
    [InlineData(new[] { "--cln-image", "two words" }, "is not an image reference")]
    [InlineData(new[] { "--concurency", "4" }, "unknown option '--concurency'")]
    [InlineData(new[] { "AlicePaysBob", "Extra" }, "unexpected argument 'Extra'")]
    [InlineData(new[] { "--list=yes" }, "--list takes no value")]
    [InlineData(
        new[] { "--instructions", "--soak", "5m" },
        "--instructions counts a benchmark's measured invocations, not a soak"
    )]
    [InlineData(new[] { "--instructions", "--profile" }, "--profile under Valgrind would sample Valgrind")]
    [InlineData(
        new[] { "--instructions-threshold", "0.3" },
        "--instructions-threshold applies to instruction runs: add --instructions"
    )]
    [InlineData(new[] { "--instructions", "--instructions-threshold", "x" }, "--instructions-threshold")]
    [InlineData(
        new[] { "--pairing", "together" },
        "--pairing is alternate (the arms of a pair live at once, invocations alternated) or sequential (one topology after the other), not 'together'"
    )]
    [InlineData(
        new[] { "--order", "version" },
        "--order says how --publish orders a site's runs: add --publish SITE RUN"
    )]
    [InlineData(
        new[] { "--publish", "site", "run", "--order", "release" },
        "--order is date (runs as they ran) or version (by the build's node version), not 'release'"
    )]
    public void Bad_input_gets_one_line_that_says_what_was_wrong(string[] args, string expected)
    {
        var error = Assert.Throws<UsageException>(() => OptionParser.Parse(args));
        Assert.Contains(expected, error.Message);
        Assert.DoesNotContain('\n', error.Message);
    }

    /// <summary>Arms alternate by default in a timed run with more than one arm; one arm, --pairing sequential, or a run that measures one topology at a time never do.</summary>
    [Theory]
    [InlineData(new[] { "--build", "a=x:1", "--build", "b=x:1" }, true)]
    [InlineData(new[] { "--traces", "on,off" }, true)]
    [InlineData(new[] { "--build", "a=x:1", "--build", "b=x:1", "--pairing", "sequential" }, false)]
    [InlineData(new[] { "--build", "a=x:1" }, false)]
    [InlineData(new[] { "--build", "a=x:1", "--build", "b=x:1", "--instructions" }, false)]
    [InlineData(new[] { "--build", "a=x:1", "--build", "b=x:1", "--profile" }, false)]
    public void Arms_alternate_in_timed_runs_with_more_than_one(string[] args, bool alternates) =>
        Assert.Equal(alternates, OptionParser.Parse(args).AlternatesArms);

    [Fact]
    public void Scenario_parameters_and_builds_are_taken_from_the_command_line()
    {
        var carols = OptionParser.Parse(["AlicePaysBobViaCarols", "--carols", "1,2,4", "--pregenerate-invoices"]);
        Assert.Equal([1, 2, 4], carols.Sweeps["CarolsCount"]);
        Assert.True(carols.PregenerateInvoices);
        Assert.Equal(
            [4, 7, 10],
            ScenarioCatalog
                .Get("AlicesPayBob")
                .Parameters.Single(p => p.Name == "AliceCount")
                .ValuesFrom(OptionParser.Parse(["AlicesPayBob"]).Sweeps)
        );

        var builds = OptionParser.Parse([
            "--build",
            "v26.06=elementsproject/lightningd:v26.06.6",
            "--build",
            "mine=mycln:dev,carol-1=other:1",
            "--traces",
            "on,off",
        ]);
        Assert.Equal(["v26.06", "mine"], builds.Builds.Select(b => b.Name));
        Assert.Equal("elementsproject/lightningd:v26.06.6", builds.Builds[0].ImageFor("alice"));
        Assert.Equal("other:1", builds.Builds[1].ImageFor("carol-1"));
        Assert.Equal("mycln:dev", builds.Builds[1].ImageFor("bob"));
        Assert.Equal(["on", "off"], builds.Traces);
        Assert.Equal(["on", "off", "unread"], OptionParser.Parse(["--traces", "on,off,unread"]).Traces);

        var comparison = OptionParser.Parse(["--topologies", "12", "--seed", "7", "--threshold", "1.5%"]);
        Assert.Equal((12, 7, 1.5), (comparison.Topologies, comparison.Seed, comparison.ThresholdPercent));
        Assert.Equal(
            (HarnessOptions.DefaultTopologies, (int?)null, 2.0),
            (new HarnessOptions().Topologies, new HarnessOptions().Seed, new HarnessOptions().ThresholdPercent)
        );
    }

    [Fact]
    public void A_build_may_name_the_node_kind_of_all_its_nodes_or_of_one()
    {
        var builds = OptionParser
            .Parse([
                "--build",
                "base=registry.local:5000/cln:v1",
                "--build",
                "other=lnd=lightninglabs/lnd:v0.18,bob=cln=mycln:dev,carol-1=img:2",
            ])
            .Builds;
        Assert.Equal(new NodeSpec("alice", "registry.local:5000/cln:v1", "cln"), builds[0].Node("alice"));
        Assert.Equal(new NodeSpec("alice", "lightninglabs/lnd:v0.18", "lnd"), builds[1].Node("alice"));
        Assert.Equal(new NodeSpec("bob", "mycln:dev", "cln"), builds[1].Node("bob"));
        // A node given an image alone has its kind recognised from the image before the run starts (the build's until then).
        Assert.Equal(["carol-1"], builds[1].NodesToRecognise);
        Assert.True(builds[1].KindKnown);
        Assert.False(builds[0].KindKnown);
        Assert.Equal(new NodeSpec("carol-1", "img:2", "lnd"), builds[1].Node("carol-1"));
        Assert.Equal([("lightninglabs/lnd:v0.18", "lnd"), ("mycln:dev", "cln"), ("img:2", "lnd")], builds[1].Images);
        Assert.Equal("other=lnd=lightninglabs/lnd:v0.18,bob=mycln:dev,carol-1=lnd=img:2", builds[1].ToString());

        var unknown = Assert.Throws<UsageException>(() => NodeKindCatalog.Default.Get("eclair"));
        Assert.Equal(
            "node kind 'eclair' is unknown: use one of cln, lnd (as --build NAME=KIND=IMAGE)",
            unknown.Message
        );
        Assert.Throws<UsageException>(() => OptionParser.Parse(["--build", "x=CLN=img"]));
    }

    [Theory]
    [InlineData(new[] { "AlicePaysBob", "--carols", "2" }, "--carols does not apply to AlicePaysBob")]
    [InlineData(new[] { "AlicesPayBob", "--alices", "0" }, "--alices 0 is out of range")]
    [InlineData(new[] { "HubRoutes", "--peers", "10,7" }, "--peers 7 is odd: give an even number")]
    [InlineData(new[] { "HubRoutes", "--peers", "62" }, "--peers 62 is out of range")]
    [InlineData(new[] { "--build", "nameonly" }, "is not NAME=[KIND=]IMAGE")]
    [InlineData(new[] { "--topologies", "0" }, "--topologies 0 is out of range")]
    [InlineData(new[] { "--threshold", "0" }, "--threshold '0' is not a percentage between 0 and 100")]
    [InlineData(new[] { "--seed", "-3" }, "--seed")]
    [InlineData(new[] { "--build", "a=x:1", "--build", "a=y:2" }, "name 'a' is used twice")]
    [InlineData(new[] { "--build", "a=x:1", "--cln-image", "y:2" }, "--cln-image and --build do not go together")]
    [InlineData(new[] { "--traces", "maybe" }, "is not a list of on, off and unread")]
    [InlineData(new[] { "--replay", "run.zip", "--iterations", "3" }, "give only --replay RUN.zip")]
    [InlineData(new[] { "--compare", "a.zip" }, "--compare needs two runs")]
    [InlineData(
        new[] { "--max-time", "10m" },
        "--max-time adds topology pairs until the builds' verdicts decide: give two builds or more"
    )]
    [InlineData(
        new[] { "--build", "a=x:1", "--build", "b=x:1", "--max-time", "600" },
        "--max-time takes a duration (10m, 90s, 2h, 1h30m): '600' is not one (a number needs its unit: 600s, 600m or 600h)"
    )]
    [InlineData(
        new[] { "--build", "a=x:1", "--build", "b=x:1", "--max-time", "5s" },
        "--max-time 5s: give a duration from 10s to 30 days (720h)"
    )]
    [InlineData(
        new[] { "--build", "a=x:1", "--build", "b=x:1", "--max-time", "30s" },
        "--max-time 30s is shorter than one round of topologies"
    )]
    [InlineData(
        new[] { "--build", "a=x:1", "--build", "b=x:1", "--max-time", "10m", "--instructions" },
        "--max-time budgets a timed comparison: drop --instructions"
    )]
    [InlineData(new[] { "--build", "a=x:1", "--max-time", "10m", "--soak", "1h" }, "--max-time adds topology pairs")]
    [InlineData(
        new[] { "--swarm", "--instructions" },
        "--swarm does not run --instructions yet (Valgrind is brought from this host into each node's container): drop --instructions or --swarm"
    )]
    [InlineData(new[] { "--swarm", "--trace-check" }, "--swarm does not run --trace-check yet")]
    [InlineData(
        new[] { "--swarm", "--traces", "on,unread" },
        "--swarm does not run --traces unread yet (the agent reads every socket it binds)"
    )]
    [InlineData(new[] { "--swarm", "--soak", "1h" }, "--swarm does not run --soak yet")]
    public void Bad_scenario_parameters_and_builds_are_refused(string[] args, string expected)
    {
        Assert.Contains(expected, Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message);
    }

    [Theory]
    [InlineData("--max-time", "10x", "--max-time takes a duration (10m, 90s, 2h, 1h30m): '10x' is not one")]
    [InlineData("--profile-every", "5mins", "--profile-every takes a duration (30s, 5m, 1h): '5mins' is not one")]
    public void A_duration_option_refuses_what_is_not_a_duration_in_its_own_words_not_the_soaks(
        string option,
        string value,
        string expected
    )
    {
        var message = Assert
            .Throws<UsageException>(() =>
                OptionParser.Parse(["--build", "a=x:1", "--build", "b=x:1", "--profile", "--soak", "1h", option, value])
            )
            .Message;
        Assert.Equal(expected, message);
        Assert.DoesNotContain("payments", message);
    }

    [Fact]
    public void A_swarm_run_is_off_by_default_and_goes_with_builds_and_a_budget()
    {
        Assert.False(OptionParser.Parse([]).Swarm);
        var swarm = OptionParser.Parse([
            "--build",
            "a=x:1",
            "--build",
            "b=x:2",
            "--max-time",
            "10m",
            "--swarm",
            "--traces",
            "on,off",
        ]);
        Assert.True(swarm.Swarm);
        // Profiles are recorded by the agents (perf in helper containers on each host).
        Assert.NotNull(OptionParser.Parse(["--build", "a=x:1", "--build", "b=x:2", "--swarm", "--profile"]).Profile);
    }

    [Fact]
    public void A_budgeted_run_starts_with_four_pairs_unless_told_and_a_fixed_run_keeps_its_eight()
    {
        var budgeted = OptionParser.Parse(["--build", "a=x:1", "--build", "b=x:2", "--max-time", "10m"]);
        Assert.Equal((TimeSpan.FromMinutes(10), 4), (budgeted.MaxTime, budgeted.Topologies));
        var told = OptionParser.Parse([
            "--build",
            "a=x:1",
            "--build",
            "b=x:2",
            "--max-time",
            "1h30m",
            "--topologies",
            "6",
        ]);
        Assert.Equal((TimeSpan.FromMinutes(90), 6), (told.MaxTime, told.Topologies));
        var fixedRun = OptionParser.Parse(["--build", "a=x:1", "--build", "b=x:2"]);
        Assert.Equal((null, 8), (fixedRun.MaxTime, fixedRun.Topologies));
    }

    [Fact]
    public void The_list_names_every_scenario_and_its_parameters()
    {
        var list = Usage.ScenarioList();
        Assert.Contains("AlicePaysBob", list);
        Assert.Contains("Concurrency: --concurrency", list);
        Assert.Contains("CarolsCount: --carols", list);
        Assert.Contains("AliceCount: --alices", list);
    }
}
