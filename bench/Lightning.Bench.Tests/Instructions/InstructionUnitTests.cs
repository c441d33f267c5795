using Lightning.Bench.Cleanup;
using Lightning.Bench.Instructions;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;
using Lightning.Bench.Tests.Support.StandIn;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests.Instructions;

[Trait("Category", "Unit")]
public class InstructionUnitTests
{
    private static readonly HostValgrind Valgrind = new(
        "/usr/bin/valgrind.bin",
        "/usr/libexec/valgrind",
        "/usr/bin/vgdb",
        "valgrind-3.19.0"
    );

    private static ComposeRunSettings Settings(HostValgrind? valgrind) =>
        new(
            "lnbench-ir-1",
            new RunLayout("/tmp/lnb/lnbench-ir-1"),
            "1000:1000",
            new Dictionary<string, string> { [RunLabels.Run] = "ir" },
            TraceSockets: true,
            Valgrind: valgrind
        );

    [Fact]
    public void Under_instructions_each_lightning_node_starts_its_own_command_line_under_the_hosts_callgrind_and_bitcoind_does_not()
    {
        var topology = AlicePaysBob.TopologyFor(
            BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
            "bitcoin/bitcoin:30.2"
        );
        var plain = ComposeGenerator.Generate(topology, Settings(null), NodeKindCatalog.Default.LoadFragments());
        var counted = ComposeGenerator.Generate(topology, Settings(Valgrind), NodeKindCatalog.Default.LoadFragments());

        Assert.Equal(plain.Services["bitcoind"].Entrypoint, counted.Services["bitcoind"].Entrypoint);
        var alice = counted.Services["alice"];
        var entrypoint = alice.Entrypoint!;
        Assert.Equal(HostValgrind.ContainerLauncher, entrypoint[0]);
        Assert.Contains("--tool=callgrind", entrypoint);
        Assert.Contains("--trace-children=yes", entrypoint);
        Assert.Contains(
            entrypoint,
            a =>
                a.StartsWith("--trace-children-skip=", StringComparison.Ordinal)
                && a.Contains("*bitcoin-cli*")
                && a.Contains("*python*")
        );
        Assert.Contains("--vgdb-prefix=/lnb/callgrind/vgdb", entrypoint);
        Assert.Contains("--callgrind-out-file=/lnb/callgrind/cg.%p", entrypoint);
        // The node's own program and command line follow, unchanged, with what Valgrind needs of the node.
        Assert.Equal(plain.Services["alice"].Entrypoint, entrypoint[^plain.Services["alice"].Entrypoint!.Count..]);
        Assert.Equal(
            [.. plain.Services["alice"].Command!, "--dev-no-plugin-checksum", "--dev-no-version-checks"],
            alice.Command
        );
        Assert.Equal("1", alice.Environment!["LIGHTNINGD_DEV_NO_BACKTRACE"]);
        Assert.Equal(HostValgrind.ContainerLib, alice.Environment["VALGRIND_LIB"]);
        Assert.True(alice.Init);
        Assert.Contains("/usr/bin/valgrind.bin:/opt/lnbench-valgrind/valgrind:ro", alice.Volumes!);
        Assert.Contains("/usr/libexec/valgrind:/opt/lnbench-valgrind/lib:ro", alice.Volumes!);
        Assert.Contains("/usr/bin/vgdb:/opt/lnbench-valgrind/vgdb:ro", alice.Volumes!);
    }

    [Fact]
    public async Task A_node_kind_that_cannot_run_under_valgrind_is_refused_before_anything_starts()
    {
        using var engine = new Lightning.Bench.Docker.DockerEngine("unix:///nonexistent/docker.sock");
        var error = await Assert.ThrowsAsync<InstructionsUnavailableException>(() =>
            InstructionsPreflight.CheckAsync(
                engine,
                Valgrind,
                [(FakeNodeImage.StandIn, new StandInKind())],
                new Dictionary<string, string>(),
                null,
                new Lightning.Bench.Progress.RunProgress(TextWriter.Null)
            )
        );
        Assert.Equal(
            $"--instructions: node kind standin ({FakeNodeImage.StandIn}) cannot run under Valgrind; compare it without --instructions",
            error.Message
        );
    }

    [Fact]
    public void Instructions_per_payment_subtract_each_processs_idle_rate_over_the_windows_length()
    {
        var nodes = new Dictionary<string, NodeInstructions>
        {
            // 20 s window, 5 s idle: the idle counts are scaled by 4.
            ["alice"] = new(
                new Dictionary<string, double> { ["lightningd"] = 1_000_000, ["bcli"] = 90_000 },
                20,
                new Dictionary<string, double> { ["lightningd"] = 25_000, ["bcli"] = 20_000 },
                5
            ),
            ["bob"] = new(
                new Dictionary<string, double> { ["lightningd"] = 500_000 },
                20,
                new Dictionary<string, double>(),
                5
            ),
        };
        var perPayment = InstructionsPerPayment.Of(nodes, payments: 10)!;
        Assert.Equal(90_000, perPayment.ByProcess["alice"]["lightningd"], 6);
        Assert.Equal(1_000, perPayment.ByProcess["alice"]["bcli"], 6);
        Assert.Equal(91_000, perPayment.ByNode["alice"], 6);
        Assert.Equal(50_000, perPayment.ByNode["bob"], 6);
        Assert.Equal(141_000, perPayment.Total, 6);
        Assert.Null(InstructionsPerPayment.Of(nodes, payments: 0));
        Assert.Null(InstructionsPerPayment.Of(null, payments: 10));
    }

    [Fact]
    public void Topologies_counted_under_valgrind_are_compared_on_instructions_only_with_the_instructions_threshold()
    {
        static TopologySample Sample(double alice, double bob) =>
            new([500], 1, 1, [40]) { Instructions = Counts(alice, bob) };
        var counted = new[] { Sample(72e6, 64e6), Sample(72.1e6, 64.1e6) };
        var metrics = ComparisonMetric.For(counted);
        Assert.Equal(
            ["instructions/payment", "instructions/payment alice", "instructions/payment bob"],
            metrics.Select(m => m.Name)
        );
        Assert.All(metrics, m => Assert.True(m.IsInstructions));
        Assert.Equal([136.2], metrics[0].IterationValues(counted[1]));
        Assert.Equal(
            ComparisonMetric.Timed(OperationNoun.Payment).Select(m => m.Name),
            ComparisonMetric.For([new TopologySample([500], 1, 1, [40])]).Select(m => m.Name)
        );
        Assert.Equal(
            ["mean time", "attempts/s", "CPU/attempt", "storage/attempt"],
            ComparisonMetric.For([new TopologySample([500], 1, 1, [40]) { Noun = "attempt" }]).Select(m => m.Name)
        );
        // A 0.3 % difference known to a few thousandths is the same at 0.5 %, and slower at 0.1 %.
        var interval = TopologyComparison.Compare(
            [
                [100.0],
                [100.1],
                [99.9],
                [100.05],
            ],
            [
                [100.3],
                [100.41],
                [100.19],
                [100.34],
            ],
            paired: true,
            seed: 1
        );
        Assert.Equal("same", Verdict.Of(interval, ComparisonMetric.InstructionsThresholdPercent, higherIsWorse: true));
        Assert.Equal("slower", Verdict.Of(interval, 0.1, higherIsWorse: true));
    }

    [Theory]
    [InlineData(40, 1, 40)]
    [InlineData(10, 1, 10)]
    [InlineData(40, 4, 10)]
    [InlineData(40, 10, 4)]
    [InlineData(40, 30, 2)]
    [InlineData(3, 1, 3)]
    public void A_topologys_window_spans_the_invocations_that_make_forty_payments_at_most_the_runs_iterations(
        int iterations,
        int paymentsPerInvocation,
        int expected
    ) => Assert.Equal(expected, CaseInstructions.WindowInvocations(iterations, paymentsPerInvocation));

    [Fact]
    public void An_instruction_run_defaults_to_forty_payments_five_topologies_and_concurrency_one_unless_told()
    {
        var defaults = OptionParser.Parse(["AlicePaysBob", "--instructions"]);
        Assert.Equal((40, 5), (defaults.Iterations, defaults.Topologies));
        Assert.Equal([1], defaults.Sweeps["Concurrency"]);
        var given = OptionParser.Parse([
            "AlicePaysBob",
            "--instructions",
            "--concurrency",
            "1,10",
            "--iterations",
            "5",
            "--topologies",
            "6",
        ]);
        Assert.Equal((5, 6), (given.Iterations, given.Topologies));
        Assert.Equal([1, 10], given.Sweeps["Concurrency"]);
        Assert.False(OptionParser.Parse(["AlicePaysBob"]).Sweeps.ContainsKey("Concurrency"));
    }

    [Fact]
    public void A_retry_loop_is_counted_at_its_mean_from_callgrinds_call_counts_whatever_chance_gave_the_window()
    {
        // Ten signatures took 23 attempts of 100,000 instructions each: counted at two attempts each, 300,000 fewer.
        var lucky = SyntheticDumps.Dump(
            "/usr/local/libexec/c-lightning/lightning_hsmd",
            [("handle_sign_commitment_tx", 5_000), ("sign_hash", 1_000), ("secp256k1_ecdsa_sign", 2_300_000)],
            [
                ("handle_sign_commitment_tx", "sign_hash", 10, 2_301_000),
                ("sign_hash", "secp256k1_ecdsa_sign", 23, 2_300_000),
            ]
        );
        var loops = new Lightning.Bench.NodeKinds.CoreLightning.CoreLightningKind().Instructions.RetryLoops!;

        var adjustment = RetryAdjustment.Of([lucky], loops);

        Assert.Equal(-300_000, adjustment["lightning_hsmd"], 6);
        Assert.Empty(RetryAdjustment.Of([lucky], []));
        var counts = new NodeInstructions(
            new Dictionary<string, double> { ["lightning_hsmd"] = 2_306_000 },
            10,
            new Dictionary<string, double>(),
            0
        )
        {
            Retries = adjustment,
        };
        Assert.Equal(2_006_000, counts.Active()["lightning_hsmd"], 6);
    }

    private static InstructionsPerPayment Counts(double alice, double bob) =>
        new(
            new Dictionary<string, double> { ["alice"] = alice, ["bob"] = bob },
            new Dictionary<string, IReadOnlyDictionary<string, double>>(),
            10
        );
}
