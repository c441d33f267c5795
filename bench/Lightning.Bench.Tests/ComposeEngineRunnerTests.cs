using System.Text.Json;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Processes;
using Lightning.Bench.Tests.Support;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The compose model started through the Engine API: the pure parts, and against compose itself on the real engine.</summary>
public class ComposeEngineRunnerTests
{
    private static readonly Dictionary<string, string> Env = new() { ["HOME_DIR"] = "/home/x", ["EMPTY"] = "" };

    private static string Interpolate(string value) => ComposeInterpolation.Apply(value, Env.GetValueOrDefault);

    [Theory]
    [InlineData("plain", "plain")]
    [InlineData("a$$b", "a$b")]
    [InlineData("$HOME_DIR/x", "/home/x/x")]
    [InlineData("${HOME_DIR}x", "/home/xx")]
    [InlineData("[$UNSET]", "[]")]
    [InlineData("${UNSET:-fallback}", "fallback")]
    [InlineData("${EMPTY:-fallback}", "fallback")]
    [InlineData("${EMPTY-fallback}", "")]
    [InlineData("${UNSET-fallback}", "fallback")]
    [InlineData("${HOME_DIR:+set}", "set")]
    [InlineData("${EMPTY:+set}", "")]
    [InlineData("${EMPTY+set}", "set")]
    [InlineData("$$HOME_DIR", "$HOME_DIR")]
    public void Variables_are_interpolated_as_compose_does(string value, string expected) => Assert.Equal(expected, Interpolate(value));

    [Theory]
    [InlineData("${UNSET:?give the data folder}", "variable UNSET is required by the compose fragments: give the data folder")]
    [InlineData("${EMPTY:?}", "variable EMPTY is required")]
    [InlineData("cost: 5$", "a lone '$'")]
    [InlineData("${HOME_DIR", "without '}'")]
    [InlineData("${HOME_DIR%x}", "invalid interpolation")]
    [InlineData("${UNSET:-${HOME_DIR}}", "nested interpolation")]
    public void Bad_or_missing_variables_are_errors_that_say_which(string value, string message) =>
        Assert.Contains(message, Assert.Throws<FormatException>(() => Interpolate(value)).Message);

    [Fact]
    public void Literal_dollars_written_by_the_generator_come_back_unchanged() =>
        Assert.Equal("/tmp/a$b/$$", Interpolate(ComposeYaml.Literal("/tmp/a$b/$$")));

    [Fact]
    public void Services_start_in_depends_on_layers_and_cycles_or_unknown_services_are_refused()
    {
        var file = new ComposeFile
        {
            Services = new()
            {
                ["bob"] = new ComposeService { DependsOn = ["bitcoind"] },
                ["bitcoind"] = new ComposeService(),
                ["alice"] = new ComposeService { DependsOn = ["bitcoind"] },
                ["carol"] = new ComposeService { DependsOn = ["alice", "bob"] },
            },
        };
        var layers = EngineComposeRunner.StartOrder(file);
        Assert.Equal([["bitcoind"], ["alice", "bob"], ["carol"]], layers.Select(l => l.ToArray()).ToArray());

        file.Services["bitcoind"].DependsOn = ["carol"];
        Assert.Contains("cycle", Assert.Throws<InvalidOperationException>(() => EngineComposeRunner.StartOrder(file)).Message);
        file.Services["bitcoind"].DependsOn = ["dave"];
        Assert.Contains("depends on dave", Assert.Throws<InvalidOperationException>(() => EngineComposeRunner.StartOrder(file)).Message);
    }

    [Theory]
    [InlineData("5s", 5)]
    [InlineData("1m30s", 90)]
    [InlineData("1500ms", 1.5)]
    [InlineData("1h", 3600)]
    public void Stop_grace_periods_are_compose_durations(string text, double seconds) =>
        Assert.Equal(TimeSpan.FromSeconds(seconds), EngineComposeRunner.Duration("x", text));

    [Fact]
    public void The_create_body_carries_every_key_a_fragment_can_set()
    {
        using var engine = new DockerEngine("unix:///nonexistent.sock");
        var runner = new EngineComposeRunner(engine, Env.GetValueOrDefault);
        var body = runner.CreateBody("p", "/w/p/docker-compose.yml", "alice", new ComposeService
        {
            Image = "img:1",
            User = "1000:1000",
            Init = true,
            Entrypoint = ["lightningd"],
            Command = ["--alias=$$x", "--dir=$HOME_DIR"],
            Environment = new() { ["A"] = "${UNSET:-b}" },
            Labels = new() { ["lnbench.node"] = "alice" },
            Volumes = ["/w/p/alice:/lnb"],
            Ports = ["127.0.0.1::18443", "9735:9735/udp", "[::1]:8080:80"],
            StopGracePeriod = "1m",
            Privileged = true,
            CapAdd = ["SYS_ADMIN"],
            SecurityOpt = ["seccomp=unconfined"],
        });
        Assert.Equal("img:1", body.Image);
        Assert.Equal("1000:1000", body.User);
        Assert.Equal(["--alias=$x", "--dir=/home/x"], body.Cmd);
        Assert.Equal(["A=b"], body.Env);
        Assert.Equal(TimeSpan.FromSeconds(60), body.StopTimeout);
        Assert.Equal("p", body.Labels["com.docker.compose.project"]);
        Assert.Equal("alice", body.Labels["com.docker.compose.service"]);
        Assert.Equal("alice", body.Labels["lnbench.node"]);
        var host = body.HostConfig!;
        Assert.Equal("p_default", host.NetworkMode);
        Assert.Equal(["/w/p/alice:/lnb:rw"], host.Binds);
        Assert.True(host.Init);
        Assert.True(host.Privileged);
        var bindings = host.PortBindings;
        Assert.Equal("127.0.0.1", bindings["18443/tcp"][0].HostIP);
        Assert.Equal("", bindings["18443/tcp"][0].HostPort);
        Assert.Equal("9735", bindings["9735/udp"][0].HostPort);
        Assert.Equal("::1", bindings["80/tcp"][0].HostIP);
        Assert.Equal(["18443/tcp", "9735/udp", "80/tcp"], body.ExposedPorts!.Keys);
        Assert.Equal(["alice"], body.NetworkingConfig!.EndpointsConfig["p_default"].Aliases);

        Assert.Contains("not a bind mount", Assert.Throws<InvalidOperationException>(() =>
            runner.CreateBody("p", "f", "bob", new ComposeService { Image = "i", Volumes = ["data:/lnb"] })).Message);
        Assert.Contains("port \"80-90\"", Assert.Throws<InvalidOperationException>(() =>
            runner.CreateBody("p", "f", "bob", new ComposeService { Image = "i", Ports = ["80-90"] })).Message);
    }
}

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
            await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.Run}={runId}");
        }
        catch (DockerUnavailableException)
        {
        }
        engine.Dispose();
        Directory.Delete(work, recursive: true);
    }

    private (ComposeFile Model, string File) Generate(string project)
    {
        var layout = new RunLayout(Path.Combine(work, project));
        Directory.CreateDirectory(layout.Root);
        foreach (var node in new[] { "bitcoind", "alice", "bob" })
        {
            Directory.CreateDirectory(layout.NodeDirectory(node));
        }
        var topology = new TopologySpec(FakeNodeImage.FakeNode,
            [new NodeSpec("alice", FakeNodeImage.FakeNode), new NodeSpec("bob", FakeNodeImage.FakeNode)],
            [new ChannelSpec("alice", "bob", 1_000_000)], [new PaymentFlow("alice", "bob")]);
        var settings = new ComposeRunSettings(project, layout, HostUser.ContainerUser,
            new Dictionary<string, string>(RunLabels.For(runId)), TraceSockets: true, DevTraceFile: false);
        var model = ComposeGenerator.Generate(topology, settings, NodeKindCatalog.Default.LoadFragments(), NodeKindCatalog.Default);
        File.WriteAllText(layout.ComposeFile, ComposeYaml.Serialize(model));
        return (model, layout.ComposeFile);
    }

    /// <summary>What matters of a container, with the project's name taken out so two projects compare.</summary>
    private static async Task<Dictionary<string, string>> DescribeAsync(string project)
    {
        var ids = await ProcessRunner.RunAsync("docker", ["ps", "-aq", "--filter", $"label={RunLabels.ComposeProject}={project}"], TimeSpan.FromMinutes(1));
        var inspect = await ProcessRunner.RunAsync("docker", ["inspect", .. ids.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries)], TimeSpan.FromMinutes(1));
        Assert.True(inspect.Succeeded, inspect.Tail());
        var described = new Dictionary<string, string>();
        var containers = JsonDocument.Parse(inspect.StandardOutput).RootElement.EnumerateArray().ToList();
        // A joined network namespace names its owner's container id: compared as the owner's service.
        var serviceOf = containers.ToDictionary(
            c => c.GetProperty("Id").GetString()!,
            c => c.GetProperty("Config").GetProperty("Labels").GetProperty(EngineComposeRunner.ServiceLabel).GetString()!);
        foreach (var c in containers)
        {
            var config = c.GetProperty("Config");
            var host = c.GetProperty("HostConfig");
            var service = config.GetProperty("Labels").GetProperty(EngineComposeRunner.ServiceLabel).GetString()!;
            var networks = c.GetProperty("NetworkSettings").GetProperty("Networks");
            var keep = new[] { "lnbench.node", "lnbench.run", "com.docker.compose.project", "com.docker.compose.service", "com.docker.compose.container-number", "com.docker.compose.oneoff" };
            var text = string.Join("\n",
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
                $"state {c.GetProperty("State").GetProperty("Status")}");
            described[service] = text.Replace(project, "PROJECT");
        }
        return described;
    }

    [SkippableTheory]
    [InlineData("v1")]
    [InlineData("v2")]
    public async Task The_engine_runner_makes_the_containers_compose_makes_and_each_takes_down_what_the_other_made(string version)
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
        Assert.Empty(await engine.ListContainersAsync($"{RunLabels.Run}={runId}"));
        Assert.Empty(await engine.ListNetworksAsync($"{RunLabels.ComposeProject}={byEngine}"));
        Assert.Empty(await engine.ListNetworksAsync($"{RunLabels.ComposeProject}={byCompose}"));
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
        Assert.Empty(await engine.ListContainersAsync($"{RunLabels.ComposeProject}={project}"));
    }
}
