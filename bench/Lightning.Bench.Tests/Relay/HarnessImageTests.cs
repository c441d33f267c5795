using System.Net;
using System.Net.Sockets;
using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Swarm;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>
/// The harness image, made from this host's .NET runtime and harness with nothing pulled, running the agent in a
/// container as a swarm runs it: the node folders on a shared mount (the pattern Core Lightning's tracing doc gives
/// for Kubernetes), the host's /proc and cgroups read-only, the harness connecting over TCP.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class HarnessImageTests : IAsyncLifetime
{
    private readonly RelayHarness harness = new();
    private readonly string secrets = Directory.CreateTempSubdirectory("lnbench-agent-secret-").FullName;
    private readonly string runId = $"test-{Guid.NewGuid():N}"[..16];
    private DockerEngine? engine;

    public Task InitializeAsync() => Task.CompletedTask;

    [SkippableFact]
    public async Task The_agent_runs_in_the_harness_image_and_relays_spans_costs_and_rpc_across_the_shared_folder()
    {
        Requirements.Docker();
        engine = new DockerEngine();
        var image = await HarnessImage.EnsureAsync(engine);
        // The tag is a digest of the files: the same build names the same image, which is made once.
        Assert.Equal(image, await HarnessImage.EnsureAsync(engine));
        Assert.Matches("^lnbench/harness:[0-9a-f]{16}$", image);

        // A build makes its own image and removes those of earlier builds: an earlier one stands in as another tag of it.
        var earlier = $"{HarnessImage.Repository}:0000000000000000";
        Assert.True(
            (
                await Processes.ProcessRunner.RunAsync("docker", ["tag", image, earlier], TimeSpan.FromSeconds(30))
            ).Succeeded
        );
        Assert.True(await engine.TryRemoveImageAsync(image));
        Assert.Equal(image, await HarnessImage.EnsureAsync(engine));
        Assert.Null(await engine.InspectImageAsync(earlier));
        Assert.NotNull(await engine.InspectImageAsync(image));

        var help = await engine.RunToCompletionAsync(
            image,
            HarnessImage.Entrypoint,
            ["agent", "--help"],
            RunLabels.For(runId).ToDictionary(),
            TimeSpan.FromMinutes(2)
        );
        Assert.True(help.ExitCode == 0, help.Output);
        Assert.Contains("--listen", help.Output);

        var tokenFile = Path.Combine(secrets, "token");
        await File.WriteAllBytesAsync(tokenFile, RelayHarness.Token);
        var port = FreePort();
        var agent = await engine.CreateContainerAsync(
            $"{runId}-agent",
            new CreateContainerParameters
            {
                Image = image,
                Cmd =
                [
                    "agent",
                    "--listen",
                    "0.0.0.0:9736",
                    "--token-file",
                    "/run/token",
                    "--work-dir",
                    "/lnb",
                    "--proc-root",
                    "/host/proc",
                ],
                Labels = RunLabels.For(runId).ToDictionary(),
                ExposedPorts = new Dictionary<string, EmptyStruct> { ["9736/tcp"] = default },
                HostConfig = new HostConfig
                {
                    Binds =
                    [
                        $"{harness.Work}:/lnb",
                        $"{tokenFile}:/run/token:ro",
                        "/proc:/host/proc:ro",
                        "/sys/fs/cgroup:/sys/fs/cgroup:ro",
                    ],
                    PortBindings = new Dictionary<string, IList<PortBinding>>
                    {
                        ["9736/tcp"] =
                        [
                            new PortBinding
                            {
                                HostIP = "127.0.0.1",
                                HostPort = port.ToString(System.Globalization.CultureInfo.InvariantCulture),
                            },
                        ],
                    },
                },
            }
        );
        await engine.StartContainerAsync(agent);
        var busy = await ProfilingTests.StartAsync(
            engine,
            runId,
            "busy",
            FakeNodeImage.Busybox,
            ["sh", "-c", "while :; do :; done"]
        );

        await using var client = RelayClient.Start(new IPEndPoint(IPAddress.Loopback, port), RelayHarness.Token);
        var welcome = await client.ConnectedAsync(RelayHarness.Patience);
        Assert.NotEqual(Environment.MachineName, welcome.Host); // the container's

        // Spans: the agent binds in the shared folder; a sender outside its container reaches it there.
        await using (
            var recorder = await client.BindAsync(
                "topo-1",
                ["alice", "bob"],
                harness.SpansFile("topo-1"),
                RelayHarness.Patience
            )
        )
        {
            Assert.All(recorder.Bound!.Sockets, s => Assert.Equal("", s.Problem));
            Assert.Equal(400, harness.Send("topo-1", "alice", 0, 400));
            Assert.Equal(100, harness.Send("topo-1", "bob", 0, 100));
            await RelayHarness.Until(
                "500 spans through the containerized agent",
                () => recorder.Arrived == 500,
                () => $"{recorder.Arrived} arrived"
            );
            var stats = await recorder.StopAsync(RelayHarness.Patience);
            Assert.Equal(
                [("alice", 400L, 0L), ("bob", 100L, 0L)],
                stats.Select(s => (s.Node, s.Received, s.DroppedByHarness))
            );
            Assert.All(recorder.Relay, r => Assert.True(r.Exact && r.LostInRelay == 0));
        }

        // Costs: another container's cgroup, found through the host's /proc and read through the host's cgroup tree.
        var pid = (await engine.InspectContainerAsync(busy))!.Pid;
        var first = Assert.Single(await client.ReadCostsAsync([new CostTarget("busy", pid)], RelayHarness.Patience));
        Assert.Equal("", first.Problem);
        await Task.Delay(TimeSpan.FromSeconds(1));
        var second = Assert.Single(await client.ReadCostsAsync([new CostTarget("busy", pid)], RelayHarness.Patience));
        Assert.True(
            second.CpuNanoseconds > first.CpuNanoseconds,
            $"{first.CpuNanoseconds} then {second.CpuNanoseconds}"
        );

        // RPC: a node's JSON-RPC socket in the shared folder, piped by the agent in its container.
        await using (var node = new FakeRpcNode(Path.Combine(harness.Work, "topo-1", "carol")))
        await using (
            var rpc = await Support.RelayClnRpc.ConnectAsync(
                new IPEndPoint(IPAddress.Loopback, port),
                RelayHarness.Token,
                "topo-1",
                "carol",
                "regtest",
                RelayHarness.Patience
            )
        )
        {
            var answer = await rpc.CallAsync("getinfo", null, "lnbench:getinfo#1").WaitAsync(RelayHarness.Patience);
            Assert.Equal("lnbench:getinfo#1", answer.GetProperty("id").GetString());
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    public async Task DisposeAsync()
    {
        if (engine is not null)
        {
            await RunResources.Of(engine, runId).RemoveAsync();
            engine.Dispose();
        }
        // The agent (root in its container) made the node folders; this process is root too, or the folder stays for the sweep.
        harness.Dispose();
        Directory.Delete(secrets, recursive: true);
    }
}
