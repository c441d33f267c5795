using System.Net;
using System.Net.Sockets;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm;
using Lightning.Bench.Swarm.Relay;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// What a `--swarm` run holds for its length (<see cref="SwarmPlatform"/>) on the real engine as a single-node swarm:
/// the harness image, an agent per host, the gate into the overlay on a Unix socket of this host, the harness's
/// connection to each agent; and nothing labelled with the run left after it.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class SwarmPlatformTests(SingleNodeSwarm swarm, ITestOutputHelper output) : IClassFixture<SingleNodeSwarm>
{
    [SkippableFact]
    public async Task The_agents_are_reached_through_the_gate_their_costs_read_and_nothing_is_left_after()
    {
        await using var containers = await ScriptContainers.OpenAsync();
        var engine = containers.Engine;
        await swarm.EnsureAsync(engine);
        var manager = await SwarmManager.RequireAsync(engine);
        var runId = $"t{Guid.NewGuid():N}"[..20];
        var work = Directory.CreateTempSubdirectory("lnbench-swarm-").FullName;
        var progress = new RunProgress(new StringWriter());
        string gate;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            await using (
                var platform = await SwarmPlatform.StartAsync(
                    engine,
                    NodeKindCatalog.Default,
                    runId,
                    [],
                    work,
                    progress
                )
            )
            {
                output.WriteLine($"harness image, agents, gate and connections in {clock.Elapsed.TotalSeconds:0.0} s");
                gate = platform.Gate;
                Assert.Equal(manager.Hosts.Select(h => h.Hostname).Order(StringComparer.Ordinal), platform.Hosts);
                var host = manager.Node.Hostname;
                var (endpoint, client) = platform.AgentOn(host);
                Assert.IsType<OverlayEndPoint>(endpoint);

                // The agent reads a container's cgroups by the host pid of its first process: a container that has
                // written 4 MiB to its disk and synced (cgroup v1 counts storage writes per process, read in the host's /proc).
                var writer = await containers.StartAsync(
                    "writer",
                    "dd if=/dev/zero of=/tmp/f bs=1M count=4 conv=fsync 2>/dev/null; sync; exec sleep 600"
                );
                var pid = (await engine.InspectContainerAsync(writer))!.Pid;
                NodeCostReading? reading = null;
                for (var i = 0; i < 100 && reading?.Resources is not { WrittenBytes: >= 4 << 20 }; i++)
                {
                    await Task.Delay(100);
                    reading = Assert.Single(
                        await client.ReadCostsAsync([new CostTarget("writer", pid)], TimeSpan.FromSeconds(10))
                    );
                }
                Assert.Equal("", reading!.Problem);
                Assert.True(reading.CpuNanoseconds > 0, "no CPU time read through the agent");
                Assert.True(
                    reading.Resources is { WrittenBytes: >= 4 << 20, MemoryBytes: > 0, Processes: >= 1 },
                    $"read through the agent: {reading.Resources}"
                );

                // swarm's DNS on the overlay, through the gate: the agents' service has one task per host.
                var agents = await OverlayGate.ResolveAsync(
                    platform.Gate,
                    $"tasks.{StackServices.ServiceName(SwarmNames.AgentStack(runId), SwarmNames.AgentService)}"
                );
                Assert.Equal(manager.Hosts.Count, agents.Length);
                // The agent's port is on the overlay only: nothing listens on this host's loopback for it.
                using var direct = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await Assert.ThrowsAsync<SocketException>(() =>
                    direct.ConnectAsync(IPAddress.Loopback, SwarmNames.AgentPort)
                );
            }
            await RunResources.Of(engine, runId).AssertNoneLeftAsync();
            Assert.False(File.Exists(gate), "the gate's socket is left");
            Assert.False(Directory.Exists(Path.GetDirectoryName(gate)), "the gate's folder is left");
        }
        finally
        {
            await RunResources.Of(engine, runId).RemoveAsync();
            Directory.Delete(work, recursive: true);
        }
    }
}
