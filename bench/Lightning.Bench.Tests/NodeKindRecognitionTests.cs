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

        var invoices = await HarnessProcess.RunAsync(
            [
                "LargeNode",
                "--history",
                "1000",
                "--history-of",
                "invoices",
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
        Assert.Equal(2, invoices.ExitCode);
        Assert.Contains(
            "--history needs a history of invoices written into its database (history of invoices): build x (lnbench-test/no-such-lnd:1) is lnd, whose nodes do not offer it",
            invoices.StandardError
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
