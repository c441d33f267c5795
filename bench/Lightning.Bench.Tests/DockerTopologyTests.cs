using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The real engine (and compose, with --with-compose), with stand-in node images built locally (see <see cref="FakeNodeImage"/>).</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class DockerTopologyTests : IAsyncLifetime
{
    private readonly string runId = $"test-{Guid.NewGuid():N}"[..17];
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-results-").FullName;
    private readonly DockerEngine engine = new();
    private ComposeCli? compose;

    /// <summary>A label of this test's own leftovers: its stale sweeps look at nothing else on a shared engine (other runs' leftovers are theirs).</summary>
    private string Scope => $"lnbench.test-scope={runId}";

    private RunResources Run => RunResources.Of(engine, runId);

    public Task InitializeAsync() => Task.CompletedTask;

    /// <summary>Each test starts here, so a missing engine (or compose of that version) skips (or, in CI, fails) the test itself.</summary>
    private async Task ReadyAsync(string? composeVersion = null)
    {
        Requirements.Docker();
        compose = composeVersion is null
            ? await ComposeCli.DetectAsync(engine.Endpoint)
            : await Requirements.ComposeAsync(composeVersion);
        await FakeNodeImage.EnsureBuiltAsync();
    }

    public async Task DisposeAsync()
    {
        if (compose is not null)
        {
            await Run.RemoveAsync();
        }
        engine.Dispose();
        Directory.Delete(work, recursive: true);
        Directory.Delete(results, recursive: true);
    }

    /// <param name="runner">"engine" (the default runner) or the compose that brings the topology up ("v1", "v2": --with-compose).</param>
    private LightningNetwork Network(string project, string runner = "engine")
    {
        var topology = new TopologySpec(
            FakeNodeImage.FakeNode,
            [new NodeSpec("alice", FakeNodeImage.FakeNode), new NodeSpec("bob", FakeNodeImage.FakeNode)],
            [new ChannelSpec("alice", "bob", 1_000_000)],
            [new PaymentFlow("alice", "bob")]
        );
        var options = new NetworkOptions(
            runId,
            project,
            work,
            results,
            HostUser.ContainerUser,
            TraceSockets: true,
            CollectTraces: true,
            DevTraceFile: false,
            TimeSpan.FromSeconds(20)
        );
        var progress = new RunProgress(TextWriter.Null);
        var platform = new SingleHostPlatform(
            engine,
            runner == "engine" ? new EngineComposeRunner(engine) : compose!,
            NodeKindCatalog.Default,
            progress
        );
        return LightningNetwork.Create(
            topology,
            options,
            platform.Place(topology, options, 1),
            engine,
            NodeKindCatalog.Default,
            progress
        );
    }

    [SkippableTheory]
    [InlineData("engine")]
    [InlineData("v1")]
    [InlineData("v2")]
    public async Task Bring_up_labels_everything_mounts_the_node_folders_and_teardown_leaves_nothing(string runner)
    {
        await ReadyAsync(runner == "engine" ? null : runner);
        var project = $"lnbench-{runId}-1";
        var network = Network(project, runner);
        await network.UpAsync(NodeKindCatalog.Default.LoadFragments(), RunCredentials.Generate());

        var containers = await Run.ContainersAsync();
        Assert.Equal(
            ["alice", "bitcoind", "bob"],
            containers.Select(c => c.Labels[ComposeGenerator.NodeLabel]).Order()
        );
        Assert.All(containers, c => Assert.Equal(project, c.Labels[RunLabels.ComposeProject]));
        // No network of the topology's own: bitcoind is on the default bridge and the nodes in its namespace.
        Assert.Empty(await Run.NetworksAsync());

        // The node wrote into its bind-mounted folder, as the harness's user, with the command line the fragment gave.
        var args = Path.Combine(network.Layout.NodeDirectory("alice"), "args");
        await WaitForFileAsync(args);
        var lines = await File.ReadAllLinesAsync(args);
        Assert.Contains("--network=regtest", lines);
        Assert.Contains("--lightning-dir=/lnb", lines);
        Assert.Contains("--alias=alice", lines);
        await WaitForFileAsync(Path.Combine(network.Layout.NodeDirectory("alice"), "uid"));
        Assert.Equal(
            HostUser.ContainerUser!.Split(':')[0],
            (await File.ReadAllTextAsync(Path.Combine(network.Layout.NodeDirectory("alice"), "uid"))).Trim()
        );
        Assert.Contains(
            "bitcoin-rpcpassword=",
            await File.ReadAllTextAsync(Path.Combine(network.Layout.NodeDirectory("alice"), "config"))
        );
        // The bitcoind RPC port is published on loopback only.
        var bitcoind = await engine.InspectContainerAsync(
            containers.Single(c => c.Labels[ComposeGenerator.NodeLabel] == "bitcoind").Id
        );
        Assert.True(bitcoind!.HostPorts.ContainsKey("18443/tcp"));

        await network.DisposeAsync();
        await network.DisposeAsync(); // twice is safe

        await Run.AssertNoneLeftAsync();
        Assert.False(Directory.Exists(network.Layout.Root));
        Assert.True(File.Exists(Path.Combine(results, "docker-compose.yml")));
    }

    [SkippableFact]
    public async Task A_node_that_dies_during_setup_is_reported_by_name_exit_code_and_log()
    {
        await ReadyAsync();
        var fragmentsDir = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;
        foreach (var fragment in new[] { CoreLightningKind.Fragment, Lightning.Bench.NodeKinds.Lnd.LndKind.Fragment })
        {
            File.Copy(Path.Combine(ComposeFragments.DefaultDirectory, fragment), Path.Combine(fragmentsDir, fragment));
        }
        var bitcoind = await File.ReadAllTextAsync(
            Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile)
        );
        await File.WriteAllTextAsync(
            Path.Combine(fragmentsDir, ComposeFragments.BitcoindFile),
            bitcoind.Replace("      - -regtest", "      - -fake-exit=3\n      - -regtest")
        );

        var network = Network($"lnbench-{runId}-2");
        var error = await Assert.ThrowsAsync<NodeDiedException>(() =>
            network.StartAsync(NodeKindCatalog.Default.LoadFragments(fragmentsDir))
        );
        Assert.Equal("bitcoind", error.Node);
        Assert.Equal(3, error.ExitCode);
        Assert.Contains("failing on purpose", error.Message);

        await network.DisposeAsync();
        await Run.AssertNoneLeftAsync();
    }

    [SkippableFact]
    public async Task Resources_of_a_run_whose_harness_is_gone_are_removed_by_label()
    {
        await ReadyAsync();
        // A container labelled as if a harness with a pid that does not exist had left it behind.
        var created = await ProcessRunner.RunAsync(
            "docker",
            [
                "run",
                "--detach",
                "--label",
                $"{RunLabels.Run}={runId}",
                "--label",
                $"{RunLabels.OwnerPid}=2147483646",
                "--label",
                Scope,
                FakeNodeImage.Busybox,
                "sleep",
                "3600",
            ],
            TimeSpan.FromMinutes(1)
        );
        Assert.True(created.Succeeded, created.Tail());

        var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync(scope: Scope);

        Assert.Contains(runId, stale);
        await Run.AssertNoneLeftAsync();
    }

    [SkippableFact]
    public async Task Another_machines_run_on_a_shared_engine_is_never_swept_by_a_local_pid_check()
    {
        await ReadyAsync();
        var created = await ProcessRunner.RunAsync(
            "docker",
            [
                "run",
                "--detach",
                "--label",
                $"{RunLabels.Run}={runId}",
                "--label",
                $"{RunLabels.OwnerPid}=2147483646",
                "--label",
                $"{RunLabels.OwnerHost}=another-machine",
                "--label",
                Scope,
                FakeNodeImage.Busybox,
                "sleep",
                "3600",
            ],
            TimeSpan.FromMinutes(1)
        );
        Assert.True(created.Succeeded, created.Tail());

        var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync(scope: Scope);

        Assert.DoesNotContain(runId, stale);
        Assert.Single(await Run.ContainersAsync());
    }

    [SkippableTheory]
    [InlineData("v1")]
    [InlineData("v2")]
    public async Task Compose_talks_to_the_engine_the_api_client_talks_to(string version)
    {
        await ReadyAsync(version);
        await using var stand = new StandInEngine(
            work,
            "1.41",
            "1.12",
            (_, path) =>
                path.StartsWith("/containers/json", StringComparison.Ordinal)
                || path.StartsWith("/networks", StringComparison.Ordinal)
                || path.StartsWith("/volumes", StringComparison.Ordinal)
                    ? new StandInResponse(
                        200,
                        path.StartsWith("/volumes", StringComparison.Ordinal) ? "{\"Volumes\":[]}" : "[]"
                    )
                    : null
        );
        var endpoint = new DockerEndpoint(stand.Host, "test");
        var standCompose = await ComposeCli.DetectAsync(endpoint, ComposeCli.CandidatesFor(version));
        var file = Path.Combine(work, "docker-compose.yml");
        await File.WriteAllTextAsync(file, "services:\n  x:\n    image: busybox\n");

        await standCompose.DownAsync("lnbench-standin", file);

        // Whatever compose asked, it asked the stand-in (the real engine never heard of this project).
        Assert.Contains(
            stand.Requests,
            r =>
                r.Contains("/containers/json", StringComparison.Ordinal)
                || r.StartsWith("GET /version", StringComparison.Ordinal)
        );
    }

    [SkippableFact]
    public async Task An_image_without_lightningd_or_that_cannot_be_pulled_gets_one_clear_error()
    {
        await ReadyAsync();
        var images = new ImageProvisioner(engine, new RunProgress(TextWriter.Null), RunLabels.For(runId));
        var noLightningd = await Assert.ThrowsAsync<ImageUnavailableException>(() =>
            images.EnsureAsync(
                FakeNodeImage.Busybox,
                "--cln-image",
                new Dictionary<string, string> { ["lightningd"] = "--version" },
                pull: false
            )
        );
        Assert.Contains("lightningd", noLightningd.Message);
        Assert.Contains("--cln-image", noLightningd.Message);

        var missing = await Assert.ThrowsAsync<ImageUnavailableException>(() =>
            images.EnsureAsync(
                "lnbench-test/does-not-exist:1",
                "--cln-image",
                new Dictionary<string, string> { ["lightningd"] = "--version" },
                pull: true
            )
        );
        Assert.Contains("lnbench-test/does-not-exist:1", missing.Message);
        Assert.Contains("pulling it failed", missing.Message);

        var (details, versions) = await images.EnsureAsync(
            FakeNodeImage.FakeNode,
            "--cln-image",
            new Dictionary<string, string> { ["lightningd"] = "--version", ["bitcoin-cli"] = "-version" },
            pull: false
        );
        Assert.Equal("fake lightningd v0.0", versions["lightningd"]);
        Assert.StartsWith("sha256:", details.Id);
        await Run.AssertNoneLeftAsync();
    }

    private static async Task WaitForFileAsync(string path)
    {
        // Written by the node's script as it starts: wait until it is there and has its content.
        for (var i = 0; i < 100 && !(File.Exists(path) && new FileInfo(path).Length > 0); i++)
        {
            await Task.Delay(100);
        }
        Assert.True(File.Exists(path) && new FileInfo(path).Length > 0, $"{path} did not appear");
    }
}
