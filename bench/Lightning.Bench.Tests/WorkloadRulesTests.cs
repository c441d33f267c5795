using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads;
using Lightning.Bench.Workloads.BothWays;

namespace Lightning.Bench.Tests;

/// <summary>Where each workload fits, and the topology it runs on.</summary>
[Trait("Category", "Unit")]
public class WorkloadRulesTests
{
    [Fact]
    public void Both_ways_gives_every_channel_half_to_its_other_side_and_runs_every_flow_back_too()
    {
        var topology = AlicePaysBobViaCarols.TopologyFor(BuildSpec.FromImage("cln:x"), "bitcoind:x", 2);
        var shaped = new BothWaysKind().Shape(topology);
        Assert.All(shaped.Channels, c => Assert.Equal(c.CapacitySat * 1000 / 2, c.PushMsat));
        Assert.Equal([("alice", "bob"), ("bob", "alice")], shaped.Flows.Select(f => (f.Payer, f.Payee)));
        Assert.Null(new BothWaysKind().Refusal(shaped));
    }

    [Theory]
    [InlineData("pay")]
    [InlineData("keysend")]
    [InlineData("fail-at-payee")]
    [InlineData("both-ways")]
    public void A_single_part_amount_a_channel_cannot_carry_is_refused_before_anything_starts(string workload)
    {
        var e = Assert.Throws<UsageException>(() =>
            OptionParser.Parse(["AlicePaysBob", "--workload", workload, "--amount-msat", "9950000000"])
        );
        Assert.Contains(
            $"--amount-msat 9950000000 is more than one channel of AlicePaysBob can carry for --workload {workload}",
            e.Message
        );
    }

    [Fact]
    public void Every_workload_is_named_once_and_fits_the_scenarios_as_they_are()
    {
        Assert.Equal(WorkloadCatalog.All.Count, WorkloadCatalog.All.Select(w => w.Name).Distinct().Count());
        // Every single-part workload but routes fits every scenario (routes needs MainnetGraph's graph; MainnetGraph --graph).
        foreach (var scenario in ScenarioCatalog.All)
        {
            var graph = scenario.Name == nameof(MainnetGraph) ? new[] { "--graph", "g.compressed" } : [];
            OptionParser.Parse([
                scenario.Name,
                .. graph,
                "--workload",
                string.Join(
                    ',',
                    WorkloadCatalog.All.Where(w => !w.SplitsPayments && w.Name != "routes").Select(w => w.Name)
                ),
            ]);
        }
        OptionParser.Parse(["MainnetGraph", "--graph", "g.compressed", "--workload", "routes"]);
        // A payment that splits needs a payer with several channels, and an amount one of them cannot carry.
        OptionParser.Parse(["AlicePaysBobOverTwoPaths", "--workload", "mpp", "--amount-msat", "1500000000"]);
        Assert.Contains(
            "alice has one channel",
            Assert
                .Throws<UsageException>(() =>
                    OptionParser.Parse(["AlicePaysBob", "--workload", "mpp", "--amount-msat", "1500000000"])
                )
                .Message
        );
        Assert.Contains(
            "give --amount-msat above 980000000",
            Assert
                .Throws<UsageException>(() => OptionParser.Parse(["AlicePaysBobOverTwoPaths", "--workload", "mpp"]))
                .Message
        );
        Assert.Contains(
            "together carry 1960000000 msat",
            Assert
                .Throws<UsageException>(() =>
                    OptionParser.Parse(["AlicePaysBobOverTwoPaths", "--workload", "mpp", "--amount-msat", "2500000000"])
                )
                .Message
        );
        Assert.Contains(
            "is not a workload",
            Assert.Throws<UsageException>(() => OptionParser.Parse(["AlicePaysBob", "--workload", "teleport"])).Message
        );
    }
}
