using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests;

/// <summary>A build's node kind, recognised from its image or refused, before any container of the run starts (real engine, small images).</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class NodeKindRecognitionTests
{
    [SkippableFact]
    public async Task An_image_with_neither_lightningd_nor_lnd_is_bad_input_and_leaves_nothing()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var results = Directory.CreateTempSubdirectory("lnbench-kind-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--build",
                $"x={FakeNodeImage.Busybox}",
                "--bitcoind-image",
                FakeNodeImage.FakeNode,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );

        Assert.Equal(2, run.ExitCode);
        Assert.Contains($"image '{FakeNodeImage.Busybox}' has none of lightningd, lnd on PATH", run.StandardError);
        Assert.Empty(Directory.GetDirectories(results));
        using var engine = new DockerEngine();
        Assert.Empty(await engine.ListContainersAsync($"{Lightning.Bench.Cleanup.RunLabels.Run}=recognise"));
    }

    [SkippableFact]
    public async Task An_lnd_image_is_recognised_and_a_bitcoind_without_zmq_is_refused_for_it_in_one_line()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureFakeLndAsync();
        var results = Directory.CreateTempSubdirectory("lnbench-kind-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--build",
                $"x={FakeNodeImage.FakeLnd}",
                "--bitcoind-image",
                FakeNodeImage.FakeLnd,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );

        Assert.Equal(2, run.ExitCode);
        Assert.Contains($"{FakeNodeImage.FakeLnd}: recognised as lnd", run.StandardOutput);
        Assert.Contains(
            $"--bitcoind-image {FakeNodeImage.FakeLnd}: its bitcoind has no -zmqpubrawblock (built without it), which lnd nodes need",
            run.StandardError
        );
        Assert.Empty(Directory.GetDirectories(results));
    }

    [SkippableFact]
    public async Task A_bitcoind_an_lnd_release_stops_against_is_refused_in_one_line_before_any_container()
    {
        Requirements.Docker();
        var core31 = await FakeNodeImage.EnsureFakeOldLndAsync(31);
        var core30 = await FakeNodeImage.EnsureFakeOldLndAsync(30);
        var results = Directory.CreateTempSubdirectory("lnbench-kind-").FullName;
        string[] Run(string image) =>
            ["AlicePaysBob", "--build", $"old={image}", "--bitcoind-image", image, "--no-pull", "--results", results];

        var refused = await HarnessProcess.RunAsync(Run(core31), TimeSpan.FromMinutes(3));

        Assert.Equal(2, refused.ExitCode);
        var line = Assert.Single(refused.StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(
            $"build old ({core31}) beside --bitcoind-image {core31} (Bitcoin Core daemon version v31.0.0): LND v0.20.3 stops at start against Bitcoin Core 31",
            line
        );
        Assert.Contains("give it a Bitcoin Core 30 image", line);
        Assert.Empty(Directory.GetDirectories(results));
        using var engine = new DockerEngine();
        Assert.Empty(await engine.ListContainersAsync($"{Lightning.Bench.Cleanup.RunLabels.Run}=recognise"));

        // The same release beside Core 30 passes that check (and stops at the next: this bitcoind has no ZMQ).
        var core30Run = await HarnessProcess.RunAsync(Run(core30), TimeSpan.FromMinutes(3));
        Assert.Equal(2, core30Run.ExitCode);
        Assert.DoesNotContain("stops at start", core30Run.StandardError);
        Assert.Contains("its bitcoind has no -zmqpubrawblock", core30Run.StandardError);
    }

    [SkippableFact]
    public async Task An_image_whose_lightningd_answers_is_core_lightning_and_lnd_is_refused_instructions_before_any_container()
    {
        Requirements.Docker();
        Requirements.Valgrind();
        await FakeNodeImage.EnsureBuiltAsync();
        var results = Directory.CreateTempSubdirectory("lnbench-kind-").FullName;

        // Named lnd: refused before its image is even looked for.
        var refused = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--instructions",
                "--build",
                "x=lnd=lnbench-test/no-such-lnd:1",
                "--bitcoind-image",
                FakeNodeImage.FakeNode,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Equal(2, refused.ExitCode);
        Assert.Contains(
            "--instructions needs counting instructions under Valgrind (instructions): build x (lnbench-test/no-such-lnd:1) is lnd, whose nodes do not offer it; drop --instructions or the build",
            refused.StandardError
        );

        // The fake node answers lightningd --version: recognised as Core Lightning (the run then stops at the missing bitcoind image).
        var recognised = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--build",
                $"x={FakeNodeImage.FakeNode}",
                "--bitcoind-image",
                "lnbench-test/no-such-bitcoind:1",
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Contains($"{FakeNodeImage.FakeNode}: recognised as cln", recognised.StandardOutput);
        Assert.Contains("lnbench-test/no-such-bitcoind:1' is not present locally", recognised.StandardError);
    }

    [SkippableFact]
    public async Task Lnd_is_refused_a_history_and_the_bookkeepers_workload_before_any_container()
    {
        Requirements.Docker();
        var results = Directory.CreateTempSubdirectory("lnbench-kind-").FullName;

        var history = await HarnessProcess.RunAsync(
            [
                "LargeNode",
                "--history",
                "1000",
                "--build",
                "x=lnd=lnbench-test/no-such-lnd:1",
                "--bitcoind-image",
                "lnbench-test/no-such-bitcoind:1",
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Equal(2, history.ExitCode);
        Assert.Contains(
            "--history needs a history of moves written into its database (history of moves): build x (lnbench-test/no-such-lnd:1) is lnd, whose nodes do not offer it",
            history.StandardError
        );

        var forwards = await HarnessProcess.RunAsync(
            [
                "LargeNode",
                "--history",
                "1000",
                "--history-of",
                "forwards",
                "--build",
                "x=lnd=lnbench-test/no-such-lnd:1",
                "--db",
                "postgres",
                "--bitcoind-image",
                "lnbench-test/no-such-bitcoind:1",
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Equal(2, forwards.ExitCode);
        Assert.Contains(
            // LND is given invoices and payments on bbolt or PostgreSQL, forwards only on bbolt.
            "--history with --db x:postgres needs a history of forwards written into its database on PostgreSQL (history of forwards on postgres): build x (lnbench-test/no-such-lnd:1) is lnd, whose nodes do not offer it",
            forwards.StandardError
        );

        var balances = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--workload",
                "balances",
                "--build",
                "x=lnd=lnbench-test/no-such-lnd:1",
                "--bitcoind-image",
                "lnbench-test/no-such-bitcoind:1",
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Equal(2, balances.ExitCode);
        Assert.Contains(
            "--workload balances needs a bookkeeper of its balances the harness can ask (bookkeeper): build x (lnbench-test/no-such-lnd:1) is lnd, whose nodes do not offer it; drop --workload balances or the build",
            balances.StandardError
        );
        Assert.Empty(Directory.GetDirectories(results));
    }
}
