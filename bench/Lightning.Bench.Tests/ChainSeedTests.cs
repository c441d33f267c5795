using Lightning.Bench.Chain;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The run's chain seed is copied whole but for the logs and locks of the bitcoind that mined it; setup times add up.</summary>
[Trait("Category", "Unit")]
public class ChainSeedTests : IDisposable
{
    private readonly string root = Directory.CreateTempSubdirectory("lnbench-seed-").FullName;

    [Fact]
    public void A_saved_seed_copies_blocks_chain_state_and_wallet_into_a_topology_but_not_logs_or_locks()
    {
        var mined = Path.Combine(root, "mined");
        Write(mined, "regtest/blocks/blk00000.dat", "blocks");
        Write(mined, "regtest/chainstate/000003.ldb", "utxo");
        Write(mined, "regtest/wallets/miner/wallet.dat", "keys");
        Write(mined, "regtest/debug.log", "the miner's log");
        Write(mined, "regtest/.lock", "");
        Write(mined, "regtest/settings.json", "{}");
        Write(mined, "bitcoin.conf", "rpcauth=secret");

        var seed = ChainSeed.Save(mined, Path.Combine(root, "seed"));
        var topology = Path.Combine(root, "topology", "bitcoind");
        seed.CopyInto(topology);

        Assert.Equal("blocks", File.ReadAllText(Path.Combine(topology, "regtest/blocks/blk00000.dat")));
        Assert.Equal("utxo", File.ReadAllText(Path.Combine(topology, "regtest/chainstate/000003.ldb")));
        Assert.Equal("keys", File.ReadAllText(Path.Combine(topology, "regtest/wallets/miner/wallet.dat")));
        Assert.False(File.Exists(Path.Combine(topology, "regtest/debug.log")));
        Assert.False(File.Exists(Path.Combine(topology, "regtest/.lock")));
        Assert.False(File.Exists(Path.Combine(topology, "regtest/settings.json")));
        // The credentials of the bitcoind that mined it are not part of the seed.
        Assert.False(File.Exists(Path.Combine(root, "seed", "bitcoin.conf")));
        Assert.False(File.Exists(Path.Combine(topology, "bitcoin.conf")));
    }

    [Fact]
    public void A_bitcoind_that_left_no_regtest_folder_is_reported_with_where_it_was_looked_for()
    {
        var error = Assert.Throws<InvalidDataException>(() =>
            ChainSeed.Save(Path.Combine(root, "empty"), Path.Combine(root, "seed"))
        );
        Assert.Contains("left no regtest folder", error.Message);
    }

    [Fact]
    public void A_seeded_bitcoind_loads_the_miners_wallet_in_its_regtest_section()
    {
        var lines = ChainSeed.Configuration.Split('\n');
        Assert.True(Array.IndexOf(lines, "[regtest]") < Array.IndexOf(lines, $"wallet={BitcoinMiner.WalletName}"));
        Assert.Contains(lines, l => l.StartsWith("maxtipage=", StringComparison.Ordinal));
    }

    [Fact]
    public void A_chain_only_topology_is_allowed_where_a_topology_without_nodes_is_not()
    {
        Assert.Empty(TopologySpec.ChainOnly("btc:1").Nodes);
        Assert.Throws<ArgumentException>(() => new TopologySpec("btc:1", [], [], []));
    }

    [Fact]
    public void Setup_steps_are_timed_one_after_another_and_add_up_to_the_time_to_ready()
    {
        var clock = new SetupTimes.Clock();
        // Thread.Sleep, not Task.Delay: a timer may fire a tick early (53.6 ms for a 60 ms Task.Delay was seen in CI,
        // whose coarse clock ticks every 10 ms); a sleep never ends early, and how late it ends depends on the machine.
        Thread.Sleep(30);
        clock.Lap("containers");
        Thread.Sleep(60);
        clock.Lap("chain");
        var times = clock.Times;

        Assert.Equal(["containers", "chain"], times.Steps.Select(s => s.Name));
        Assert.InRange(times.Steps[0].Seconds, 0.030, 60);
        Assert.InRange(times.Steps[1].Seconds, 0.060, 60);
        Assert.Equal(times.Steps.Sum(s => s.Seconds), times.ReadySeconds, 9);
        Assert.Matches(@"^\d+\.\d s \(containers \d+\.\d, chain \d+\.\d\)$", times.ToString());
    }

    [Fact]
    public void The_setup_report_gives_the_median_and_range_of_the_topologies_and_each_steps_median()
    {
        CaseResults Case(string key, params double[] seconds)
        {
            var results = new CaseResults(key, 1);
            results.Topology = new CaseRecord(
                key,
                "p",
                new Dictionary<string, string>(),
                new Dictionary<string, string>(),
                DateTimeOffset.UtcNow,
                null
            )
            {
                Setup = new SetupTimes(
                    [new SetupStep("containers", seconds[0]), new SetupStep("routes", seconds[1])],
                    IdleWindowSeconds: 3
                ),
            };
            return results;
        }

        var markdown = SetupReport.Markdown([
            Case("a", 1.0, 2.0),
            Case("b", 2.0, 2.0),
            Case("c", 4.0, 0.5),
            new CaseResults("never started", 1),
        ]);

        Assert.Contains(
            "3 topologies ready in median 4.0 s (range 3.0–4.5 s), then 3.0 s to measure the nodes' idle CPU.",
            markdown
        );
        Assert.Contains("| median s | 2.0 | 2.0 | 4.0 |", markdown);
        Assert.Contains("| max s | 4.0 | 2.0 | 4.5 |", markdown);
        Assert.Equal("", SetupReport.Markdown([new CaseResults("never started", 1)]));

        // A timed run measures idle CPU after the payments, behind the next setup: the report says so.
        var behind = Case("d", 1.0, 1.0);
        behind.Topology = behind.Topology! with { Setup = behind.Topology.Setup! with { IdleAfterPayments = true } };
        Assert.Contains(
            "1 topologies ready in median 2.0 s (range 2.0–2.0 s), and each one's idle CPU measured for 3.0 s after its payments, while the next topology was set up.",
            SetupReport.Markdown([behind])
        );

        // Two builds (an LND build sets up more slowly than Core Lightning's): each build's medians beside the whole run's.
        CaseResults Built(string build, int topology, params double[] seconds)
        {
            var id = new CaseId(
                build,
                "on",
                topology,
                new CellId(CellId.DefaultWorkload, new Dictionary<string, int> { [CellId.ConcurrencyName] = 1 })
            );
            var built = Case(id.Key, seconds);
            return new CaseResults(id.Key, 1) { Parameters = id.Texts, Topology = built.Topology };
        }
        var byBuild = SetupReport.Markdown([
            Built("cln", 1, 1.0, 1.0),
            Built("cln", 2, 1.0, 2.0),
            Built("lnd", 1, 6.0, 1.0),
            Built("lnd", 2, 8.0, 1.0),
        ]);
        Assert.Contains("| median s, build cln | 1.0 | 1.5 | 2.5 |", byBuild);
        Assert.Contains("| median s, build lnd | 7.0 | 1.0 | 8.0 |", byBuild);
        Assert.DoesNotContain("build", markdown);
    }

    private static void Write(string folder, string relative, string content)
    {
        var path = Path.Combine(folder, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }

    public void Dispose() => Directory.Delete(root, recursive: true);
}
