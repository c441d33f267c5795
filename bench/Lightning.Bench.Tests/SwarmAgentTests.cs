using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Swarm;
using Lightning.Bench.Tests.Support;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// The run's agents on a single-node swarm: deployed as a global service from the harness image, found from inside
/// the run's overlay by swarm's DNS and each probed for its host, and gone with the run.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class SwarmAgentTests(SingleNodeSwarm swarm, ITestOutputHelper output) : IClassFixture<SingleNodeSwarm>, IAsyncLifetime
{
    private const string ScopeLabel = "lnbench.test-scope";
    private static readonly byte[] Token = "swarm-agent-token-0123456789"u8.ToArray();
    private readonly string runId = $"t{Guid.NewGuid():N}"[..20];
    private readonly string secrets = Directory.CreateTempSubdirectory("lnbench-agents-").FullName;
    private readonly DockerEngine engine = new();

    private string Scope => $"{ScopeLabel}={runId}";

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        try
        {
            if (Requirements.DockerAvailable)
            {
                await new ResourceSweeper(engine).RemoveAsync(Scope);
            }
        }
        finally
        {
            engine.Dispose();
            Directory.Delete(secrets, recursive: true);
        }
    }

    [SkippableFact]
    public async Task The_agents_run_from_the_harness_image_one_per_host_and_are_found_from_the_overlay_with_their_host()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        await swarm.EnsureAsync(engine);
        var image = await HarnessImage.EnsureAsync(engine);
        var labels = new Dictionary<string, string>(RunLabels.For(runId))
        {
            [ScopeLabel] = runId,
            [RunLabels.OwnerPid] = Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };

        await using (var run = await SwarmRun.StartAsync(engine, runId, labels, [image], Token))
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var agents = await run.DeployAgentsAsync(image, owner: null);
            var task = Assert.Single(await agents.WaitRunningAsync(TimeSpan.FromSeconds(120)));
            output.WriteLine($"agents deployed and running in {clock.Elapsed.TotalSeconds:0.0} s on {task.Host}");
            Assert.Equal(run.Manager.Node.Hostname, task.Host);

            var service = $"{SwarmNames.AgentStack(runId)}_{SwarmNames.AgentService}";
            var (found, said) = await ProbeFromOverlayAsync(image, labels, service, Token);
            Assert.True(found == 0, said);
            // The agent says its host from the task's template ({{.Node.Hostname}}), found by `tasks.SERVICE` on the overlay.
            Assert.Matches($@"(?m)^host {System.Text.RegularExpressions.Regex.Escape(task.Host)} at \d+\.\d+\.\d+\.\d+:{SwarmNames.AgentPort}, session \d+$", said);

            var (refused, why) = await ProbeFromOverlayAsync(image, labels, service, "not-the-run-token-at-all"u8.ToArray());
            Assert.Equal(1, refused);
            Assert.Contains("refused the connection: wrong token", why);
        }

        // The run's end took the agents' stack with the rest.
        Assert.Empty(await engine.Swarm.ListServicesAsync(Scope));
        Assert.Empty(await engine.Swarm.ListSecretsAsync(Scope));
        Assert.Empty(await engine.ListNetworksAsync(Scope));
        Assert.DoesNotContain(await engine.ListContainersAsync(Scope), c => c.Labels.GetValueOrDefault(Compose.ComposeGenerator.NodeLabel) == SwarmNames.AgentService);
    }

    [SkippableFact]
    public async Task Work_volumes_of_runs_not_kept_are_removed_on_every_host_by_a_job_and_nothing_else_is()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        await swarm.EnsureAsync(engine);
        var image = await HarnessImage.EnsureAsync(engine);
        var (stale, live) = ($"{runId}s", $"{runId}l");
        // A killed run's work volume, a live run's, and a volume of the killed run that is not a work volume (as a single-host run makes).
        foreach (var (name, run) in new[] { (SwarmNames.WorkVolume(stale), stale), (SwarmNames.WorkVolume(live), live), ($"lnbench-{stale}-chain", stale) })
        {
            var made = await Processes.ProcessRunner.RunAsync("docker", ["volume", "create", "--label", $"{RunLabels.Run}={run}", "--label", Scope, name], TimeSpan.FromSeconds(30));
            Assert.True(made.Succeeded, made.Tail());
        }
        var labels = new Dictionary<string, string> { [ScopeLabel] = runId };

        var failed = await WorkVolumeSweep.OnEveryHostAsync(engine, image, new HashSet<string> { live }, labels, TimeSpan.FromSeconds(120), scope: Scope);

        Assert.Empty(failed);
        Assert.Equal([$"lnbench-{stale}-chain", SwarmNames.WorkVolume(live)], (await engine.ListVolumesAsync(Scope)).Order(StringComparer.Ordinal));
        Assert.Empty(await engine.Swarm.ListServicesAsync(Scope));
    }

    /// <summary>`agents` in a one-shot container of the harness image attached to the run's overlay: its exit code and output.</summary>
    private async Task<(long ExitCode, string Output)> ProbeFromOverlayAsync(string image, IReadOnlyDictionary<string, string> labels, string service, byte[] token)
    {
        var tokenFile = Path.Combine(secrets, $"token-{Guid.NewGuid():N}");
        await File.WriteAllBytesAsync(tokenFile, token);
        var id = await engine.CreateContainerAsync($"{runId}-probe-{Guid.NewGuid():N}"[..40], new CreateContainerParameters
        {
            Image = image,
            Cmd = ["agents", "--service", service, "--token-file", "/run/token", "--expect", "1", "--timeout", "30"],
            Labels = new Dictionary<string, string>(labels),
            HostConfig = new HostConfig { NetworkMode = SwarmNames.Network(runId), Binds = [$"{tokenFile}:/run/token:ro"] },
        });
        try
        {
            await engine.StartContainerAsync(id);
            var exit = await engine.WaitContainerAsync(id, TimeSpan.FromSeconds(90));
            return (exit, await engine.GetLogsAsync(id, 50));
        }
        finally
        {
            await engine.RemoveContainerAsync(id);
        }
    }
}
