using System.Text.Json;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Processes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The engine runner against docker compose itself: the same containers, and each can take down what the other made.</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class ComposeEngineRunnerDockerTests : IAsyncLifetime
{
    private readonly string runId = $"test-{Guid.NewGuid():N}"[..17];
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly DockerEngine engine = new();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        try
        {
            await RunResources.Of(engine, runId).RemoveAsync();
        }
        catch (DockerUnavailableException) { }
        engine.Dispose();
        Directory.Delete(work, recursive: true);
    }

    /// <summary>A compose project's resources: compose labels its containers and networks with the project, not the run.</summary>
    private RunResources Project(string project) => new(engine, $"{RunLabels.ComposeProject}={project}");

    private (ComposeFile Model, string File) Generate(string project)
    {
        var layout = new RunLayout(Path.Combine(work, project));
        Directory.CreateDirectory(layout.Root);
        foreach (var node in new[] { "bitcoind", "alice", "bob" })
        {
            Directory.CreateDirectory(layout.NodeDirectory(node));
        }
        var topology = new TopologySpec(
            FakeNodeImage.FakeNode,
            [new NodeSpec("alice", FakeNodeImage.FakeNode), new NodeSpec("bob", FakeNodeImage.FakeNode)],
            [new ChannelSpec("alice", "bob", 1_000_000)],
            [new PaymentFlow("alice", "bob")]
        );
        var settings = new ComposeRunSettings(
            project,
            layout,
            HostUser.ContainerUser,
            new Dictionary<string, string>(RunLabels.For(runId)),
            TraceSockets: true,
            DevTraceFile: false
        );
        var model = ComposeGenerator.Generate(
            topology,
            settings,
            NodeKindCatalog.Default.LoadFragments(),
            NodeKindCatalog.Default
        );
        File.WriteAllText(layout.ComposeFile, ComposeYaml.Serialize(model));
        return (model, layout.ComposeFile);
    }

    /// <summary>What matters of a container, with the project's name taken out so two projects compare.</summary>
    private async Task<Dictionary<string, string>> DescribeAsync(string project)
    {
        var ids = (await Project(project).ContainersAsync()).Select(c => c.Id);
        // The engine's whole record of each container, as docker inspect prints it.
        var inspect = await ProcessRunner.RunAsync("docker", ["inspect", .. ids], TimeSpan.FromMinutes(1));
        Assert.True(inspect.Succeeded, inspect.Tail());
        var described = new Dictionary<string, string>();
        var containers = JsonDocument.Parse(inspect.StandardOutput).RootElement.EnumerateArray().ToList();
        // A joined network namespace names its owner's container id: compared as the owner's service.
        var serviceOf = containers.ToDictionary(
            c => c.GetProperty("Id").GetString()!,
            c =>
                c.GetProperty("Config").GetProperty("Labels").GetProperty(EngineComposeRunner.ServiceLabel).GetString()!
        );
        foreach (var c in containers)
        {
            var config = c.GetProperty("Config");
            var host = c.GetProperty("HostConfig");
            var service = config.GetProperty("Labels").GetProperty(EngineComposeRunner.ServiceLabel).GetString()!;
            var networks = c.GetProperty("NetworkSettings").GetProperty("Networks");
            var keep = new[]
            {
                "lnbench.node",
                "lnbench.run",
                "com.docker.compose.project",
                "com.docker.compose.service",
                "com.docker.compose.container-number",
                "com.docker.compose.oneoff",
            };
            var text = string.Join(
                "\n",
                $"name {c.GetProperty("Name").GetString()!.Replace('_', '-')}",
                $"image {config.GetProperty("Image")}",
                $"user {config.GetProperty("User")}",
                $"entrypoint {config.GetProperty("Entrypoint")}",
                $"cmd {config.GetProperty("Cmd")}",
                $"env {string.Join(",", config.GetProperty("Env").EnumerateArray().Select(e => e.GetString()).Where(e => e!.StartsWith("CLN_")).Order())}",
                $"labels {string.Join(",", keep.Select(k => $"{k}={(config.GetProperty("Labels").TryGetProperty(k, out var v) ? v.GetString() : "-")}"))}",
                $"binds {host.GetProperty("Binds")}",
                $"ports {host.GetProperty("PortBindings")}",
                $"init {host.GetProperty("Init")}",
                $"stop {(config.TryGetProperty("StopTimeout", out var stop) ? stop.ToString() : "-")}",
                $"network {string.Join(",", networks.EnumerateObject().Select(n => n.Name))}",
                $"network mode {string.Join(":", host.GetProperty("NetworkMode").GetString()!.Split(':').Select(part => serviceOf.GetValueOrDefault(part, part)))}",
                $"aliases {string.Join(",", networks.EnumerateObject().Where(n => n.Value.GetProperty("Aliases").ValueKind == JsonValueKind.Array).SelectMany(n => n.Value.GetProperty("Aliases").EnumerateArray().Select(a => a.GetString())).Where(a => a == service))}",
                $"state {c.GetProperty("State").GetProperty("Status")}"
            );
            described[service] = text.Replace(project, "PROJECT");
        }
        return described;
    }

    [SkippableTheory]
    [InlineData("v1")]
    [InlineData("v2")]
    public async Task The_engine_runner_makes_the_containers_compose_makes_and_each_takes_down_what_the_other_made(
        string version
    )
    {
        var compose = await Requirements.ComposeAsync(version);
        await FakeNodeImage.EnsureBuiltAsync();
        var byEngine = $"lnbench-{runId}-e";
        var byCompose = $"lnbench-{runId}-c";
        var (engineModel, engineFile) = Generate(byEngine);
        var (composeModel, composeFile) = Generate(byCompose);
        var runner = new EngineComposeRunner(engine);

        await runner.UpAsync(byEngine, engineFile, engineModel);
        await ((IComposeRunner)compose).UpAsync(byCompose, composeFile, composeModel);

        var made = await DescribeAsync(byEngine);
        var expected = await DescribeAsync(byCompose);
        Assert.Equal(["alice", "bitcoind", "bob"], made.Keys.Order());
        foreach (var service in expected.Keys)
        {
            Assert.Equal(expected[service], made[service]);
        }

        // compose takes down what the engine runner made, and the engine runner what compose made.
        await ((IComposeRunner)compose).DownAsync(byEngine, engineFile);
        await runner.DownAsync(byCompose, composeFile);
        Assert.Empty(await RunResources.Of(engine, runId).ContainersAsync());
        Assert.Empty(await Project(byEngine).NetworksAsync());
        Assert.Empty(await Project(byCompose).NetworksAsync());
    }

    [SkippableFact]
    public async Task A_service_that_cannot_start_is_named_in_the_error()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var project = $"lnbench-{runId}-x";
        var (model, file) = Generate(project);
        model.Services["bob"].User = "no-such-user";
        var runner = new EngineComposeRunner(engine);

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => runner.UpAsync(project, file, model));

        Assert.StartsWith($"service bob ({FakeNodeImage.FakeNode}) could not start:", error.Message);
        Assert.Contains("no-such-user", error.Message);
        await runner.DownAsync(project, file);
        Assert.Empty(await Project(project).ContainersAsync());
    }
}
