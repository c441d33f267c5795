using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;
using Lightning.Bench.Swarm;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>A swarm comparison in shares side by side: how the pairs are split, what each share runs with, and how all pairs are judged together.</summary>
[Trait("Category", "Unit")]
public sealed class SideBySideTests
{
    [Theory]
    [InlineData(8, 2)]
    [InlineData(8, 3)]
    [InlineData(5, 4)]
    [InlineData(16, 4)]
    public void Shares_cover_every_topology_once_in_contiguous_runs_that_differ_by_one_at_most(
        int topologies,
        int shares
    )
    {
        var ranges = SideBySideRun.Ranges(topologies, shares);

        Assert.Equal(shares, ranges.Count);
        Assert.Equal(
            Enumerable.Range(1, topologies),
            ranges.SelectMany(r => Enumerable.Range(r.First, r.Last - r.First + 1))
        );
        var sizes = ranges.Select(r => r.Last - r.First + 1).ToList();
        Assert.InRange(sizes.Max() - sizes.Min(), 0, 1);
    }

    [Fact]
    public void More_shares_than_topologies_give_one_topology_per_share()
    {
        Assert.Equal([(1, 1), (2, 2), (3, 3)], SideBySideRun.Ranges(3, 8));
    }

    [Fact]
    public void A_share_runs_the_users_command_on_its_host_and_topologies_with_the_runs_seed_into_its_own_folder()
    {
        string[] user =
        [
            "AlicePaysBob",
            "--swarm",
            "--side-by-side",
            "3",
            "--build",
            "a=x:1",
            "--build",
            "b=x:2",
            "--results",
            "out",
            "--seed=7",
            "--topologies",
            "6",
            "--concurrency",
            "1,10",
        ];

        var args = SideBySideRun.ShareArguments(user, "node-2", (3, 4), 41, "/r/shares/2-node-2");
        var share = OptionParser.Parse([.. args]);

        Assert.DoesNotContain("--side-by-side", args);
        Assert.True(share.Swarm);
        Assert.Null(share.SideBySide);
        Assert.Equal("node-2", share.SwarmHost);
        Assert.Equal((3, 4), share.TopologyRange);
        Assert.Equal(41, share.Seed);
        Assert.Equal("/r/shares/2-node-2", share.ResultsRoot);
        Assert.Equal(6, share.Topologies);
        Assert.Equal(["a", "b"], share.Builds.Select(b => b.Name));
    }

    [Theory]
    [InlineData(new[] { "--side-by-side", "2" }, "--side-by-side places topologies on a swarm's hosts: add --swarm")]
    [InlineData(new[] { "--swarm-host", "vm" }, "--swarm-host places topologies on a swarm's hosts: add --swarm")]
    [InlineData(
        new[] { "--swarm", "--side-by-side", "2", "--swarm-host", "vm" },
        "--side-by-side gives each share its host and topologies itself: drop --swarm-host"
    )]
    [InlineData(
        new[] { "--build", "a=x:1", "--build", "b=x:1", "--swarm", "--side-by-side", "2", "--max-time", "10m" },
        "--side-by-side does not take --max-time yet"
    )]
    [InlineData(
        new[] { "--topologies", "4", "--topology-range", "3-5" },
        "--topology-range 3-5 goes past --topologies 4"
    )]
    [InlineData(new[] { "--topology-range", "4-2" }, "--topology-range '4-2' is not FIRST-LAST")]
    public void Side_by_side_options_that_do_not_fit_are_refused_in_one_line(string[] args, string expected)
    {
        Assert.Contains(expected, Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message);
    }

    [Theory]
    [InlineData(new[] { "--place", "bob=far" }, "--place places topologies on a swarm's hosts: add --swarm")]
    [InlineData(new[] { "--swarm", "--place", "bob" }, "--place 'bob' is not NODE=VALUE")]
    [InlineData(new[] { "--swarm", "--place", "bob=Far" }, "--place 'bob=Far' is not NODE=VALUE")]
    [InlineData(
        new[] { "--swarm", "--place", "bob=far", "--place", "bob=near" },
        "--place: node bob is placed twice (bob=far and bob=near): give it once"
    )]
    [InlineData(
        new[] { "--swarm", "--place", "carol-1=far" },
        "--place carol-1=far: AlicePaysBob has no node carol-1 at the parameters given (its nodes: alice, bob)"
    )]
    [InlineData(
        new[] { "AlicePaysBobViaCarols", "--carols", "1", "--swarm", "--place", "carol-2=far" },
        "AlicePaysBobViaCarols has no node carol-2 at the parameters given (its nodes: alice, carol-1, bob)"
    )]
    [InlineData(
        new[] { "--swarm", "--place", "bob=far", "--place", "alice=far" },
        "--place puts every node of a topology (alice, bob) apart from its bitcoind"
    )]
    public void Placements_that_do_not_fit_are_refused_in_one_line(string[] args, string expected)
    {
        Assert.Contains(expected, Assert.Throws<UsageException>(() => OptionParser.Parse(args)).Message);
    }

    [Fact]
    public void Placed_nodes_reach_every_topology_and_every_share()
    {
        var options = OptionParser.Parse([
            "AlicePaysBobViaCarols",
            "--carols",
            "1,4",
            "--swarm",
            "--place",
            "carol-4=far",
            "--place",
            "bob=near",
        ]);
        Assert.Equal(new Dictionary<string, string> { ["carol-4"] = "far", ["bob"] = "near" }, options.Placements);

        var four = AlicePaysBobViaCarols
            .TopologyFor(BuildSpec.FromImage("cln:dev"), "btc", 4)
            .Placed(options.Placements);
        Assert.Equal(["far", "near"], four.Nodes.Where(n => n.Placement is not null).Select(n => n.Placement));
        Assert.Equal(["carol-4", "bob"], four.Nodes.Where(n => n.Placement is not null).Select(n => n.Name));
        // carol-4 is not in the topology with one Carol: it is placed where it exists.
        var one = AlicePaysBobViaCarols
            .TopologyFor(BuildSpec.FromImage("cln:dev"), "btc", 1)
            .Placed(options.Placements);
        Assert.Equal(["bob"], one.Nodes.Where(n => n.Placement is not null).Select(n => n.Name));

        var share = OptionParser.Parse([
            .. SideBySideRun.ShareArguments(
                ["AlicePaysBob", "--swarm", "--place", "bob=far"],
                "node-2",
                (1, 4),
                7,
                "/r"
            ),
        ]);
        Assert.Equal(new Dictionary<string, string> { ["bob"] = "far" }, share.Placements);
    }

    [Fact]
    public void All_shares_pairs_are_judged_together_paired_by_topology_index_whichever_share_measured_them()
    {
        // Four pairs in two shares; the candidate is 10 % slower in every pair, while the pairs' levels differ by 40 %
        // (the hosts and topologies differ): only pairing finds the change.
        var levels = new[] { 50.0, 70.0, 55.0, 65.0 };
        var changes = new[] { 1.10, 1.08, 1.12, 1.09 };
        var share1 = new List<CaseSummary>();
        var share2 = new List<CaseSummary>();
        for (var topology = 1; topology <= 4; topology++)
        {
            var baseline = levels[topology - 1];
            var into = topology <= 2 ? share1 : share2;
            into.Add(Case("a", topology, [baseline, baseline * 1.01, baseline * 0.99]));
            var change = changes[topology - 1];
            into.Add(Case("b", topology, [baseline * change, baseline * change * 1.01, baseline * change * 0.99]));
        }

        var merged = ArmComparer.Of([.. share2, .. share1], ["a", "b"], [TraceModes.On], 3, seed: 5);
        var time = Assert.Single(merged.Comparisons, c => c.Metric == "mean time");

        Assert.Equal(("a", "b"), (time.Baseline, time.Candidate));
        Assert.Equal(Verdict.Slower, time.Verdict);
        Assert.InRange(time.Interval.Ratio, 1.09, 1.11);
        Assert.InRange(time.Interval.Low, 1.05, 1.10);
        Assert.InRange(time.Interval.High, 1.10, 1.15);
        // Unpaired, the levels' 40 % spread would swamp the change: the pairs are what the merged comparison used.
        Assert.True(time.Interval.Paired);
        Assert.Equal(4, time.Interval.BaselineTopologies);
        // Without the shares' timelines there is no precision advice; the verdict is the same method's.
        Assert.Null(time.Precision);
        // One share alone (two pairs) says less: its interval is wider.
        var alone = Assert
            .Single(
                ArmComparer.Of(share1, ["a", "b"], [TraceModes.On], 3, seed: 5).Comparisons,
                c => c.Metric == "mean time"
            )
            .Interval;
        Assert.True(
            alone.High - alone.Low > time.Interval.High - time.Interval.Low,
            $"{alone.Low}–{alone.High} against {time.Interval.Low}–{time.Interval.High}"
        );
    }

    private static CaseSummary Case(string build, int topology, double[] iterations) =>
        CaseSummaries.Of(build, topology, iterations);
}
