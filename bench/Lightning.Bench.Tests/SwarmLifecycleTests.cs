using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Swarm;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// A run's swarm lifecycle on the real engine as a single-node swarm (made one by <see cref="SingleNodeSwarm"/> when it
/// is not), with the stand-in images of <see cref="FakeNodeImage"/>: resources, image check, deploy, tasks, removal, sweep.
/// Every resource carries a label of this test instance (<see cref="Scope"/>), and every sweep here is limited to it.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class SwarmLifecycleTests(SingleNodeSwarm swarm, ITestOutputHelper output)
    : IClassFixture<SingleNodeSwarm>,
        IAsyncLifetime
{
    private const string ScopeLabel = "lnbench.test-scope";
    private const int GonePid = 2147483646;
    private static readonly byte[] AgentToken = "swarm-agent-token-0123456789"u8.ToArray();
    private readonly string runId = $"t{Guid.NewGuid():N}"[..20];
    private readonly DockerEngine engine = new();

    private string Scope => $"{ScopeLabel}={runId}";

    /// <summary>Everything this test made, whichever run it is labelled with.</summary>
    private RunResources Scoped => new(engine, Scope);

    /// <summary>What a stack's removal takes: the resources labelled with its namespace.</summary>
    private RunResources Stack(string name) => new(engine, $"{StackServices.NamespaceLabel}={name}");

    private Dictionary<string, string> Labels(int? pid = null) =>
        new(RunLabels.For(runId))
        {
            [ScopeLabel] = runId,
            [RunLabels.OwnerPid] = (pid ?? Environment.ProcessId).ToString(
                System.Globalization.CultureInfo.InvariantCulture
            ),
        };

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        try
        {
            if (Requirements.DockerAvailable)
            {
                await Scoped.RemoveAsync();
            }
        }
        finally
        {
            engine.Dispose();
        }
    }

    private async Task<SwarmManager> ReadyAsync()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        await swarm.EnsureAsync(engine);
        // The tests place everything on the manager's own host, so only its images matter (a developer's swarm may have others).
        var manager = await SwarmManager.RequireAsync(engine);
        return manager with { Hosts = [manager.Node] };
    }

    /// <summary>AlicePaysBob's topology with one node: bitcoind and alice, both the stand-in image (they record their arguments and sleep).</summary>
    private static TopologySpec TwoServiceTopology()
    {
        var topology = AlicePaysBob.TopologyFor(BuildSpec.FromImage(FakeNodeImage.FakeNode), FakeNodeImage.FakeNode);
        return new TopologySpec(topology.BitcoindImage, topology.Nodes.Where(n => n.Name == "alice").ToList(), [], []);
    }

    [SkippableFact]
    public async Task A_generated_two_service_stack_runs_says_where_each_task_runs_and_leaves_nothing_when_removed()
    {
        var manager = await ReadyAsync();
        var labels = Labels();
        var stack = $"lnbench-{runId}-1";
        var topology = TwoServiceTopology();
        var resources = new SwarmRunResources(engine);
        foreach (
            var resource in SwarmResources
                .ForRun(runId, labels)
                .Concat(SwarmResources.ForTopology(topology, stack, labels))
        )
        {
            await resources.CreateAsync(
                resource,
                resource.Kind == SwarmResource.SecretKind ? "not a real credential"u8.ToArray() : null
            );
        }
        var images = await SwarmImageCheck.RequireSameAsync(engine, manager, [FakeNodeImage.FakeNode]);
        var file = StackGenerator.Generate(
            topology,
            new StackSettings(runId, stack, null, labels, manager.Node.Hostname, TraceSockets: false),
            NodeKindCatalog.Default.LoadFragments()
        );

        var clock = System.Diagnostics.Stopwatch.StartNew();
        var deployed = await SwarmStack.DeployAsync(engine, stack, file, images);
        await using (deployed)
        {
            var tasks = await deployed.WaitRunningAsync(TimeSpan.FromSeconds(90));
            output.WriteLine($"deployed and running in {clock.Elapsed.TotalSeconds:0.00} s");

            Assert.Equal(["alice", "bitcoind"], tasks.Select(t => t.Service).Order());
            foreach (var task in tasks)
            {
                Assert.Equal(manager.Node.Hostname, task.Host);
                Assert.True(task.Pid > 0, $"{task.Service}: pid {task.Pid}");
                var container = await engine.InspectContainerAsync(task.ContainerId);
                Assert.NotNull(container);
                Assert.True(container.Running, $"{task.Service}: {container.Status}");
            }
            // What `docker stack ls` lists: services labelled with the stack's namespace, named STACK_SERVICE.
            var services = await Stack(stack).ServicesAsync();
            Assert.Equal([$"{stack}_alice", $"{stack}_bitcoind"], services.Select(s => s.Name).Order());
            Assert.All(services, s => Assert.Equal(runId, s.Labels[RunLabels.Run]));
            Assert.All(services, s => Assert.Equal(FakeNodeImage.FakeNode, s.Labels[StackServices.ImageLabel]));
            var containers = await Stack(stack).ContainersAsync();
            Assert.Equal(2, containers.Count);
            Assert.All(containers, c => Assert.Equal(runId, c.Labels[RunLabels.Run]));
            clock.Restart();
        }
        output.WriteLine($"removed, containers gone, in {clock.Elapsed.TotalSeconds:0.00} s");

        Assert.Empty(await Stack(stack).ServicesAsync());
        Assert.Empty(await Stack(stack).ContainersAsync());
        // The stack's removal leaves what the run made (network, secrets) and what the hosts made (the work volume): the run's sweep takes them.
        Assert.Single(await Scoped.VolumesAsync());
        Assert.Equal(3, (await Scoped.SecretsAsync()).Count);
        await RunResources.Of(engine, runId).RemoveAsync();
        await AssertNothingLeftAsync();
    }

    [SkippableFact]
    public async Task A_killed_runs_services_secrets_network_and_volume_are_swept_by_label_at_the_next_start_and_a_live_runs_are_kept()
    {
        await ReadyAsync();
        var gone = Labels(GonePid);
        var resources = new SwarmRunResources(engine);
        foreach (var resource in SwarmResources.ForRun(runId, gone))
        {
            await resources.CreateAsync(
                resource,
                resource.Kind == SwarmResource.SecretKind ? "token"u8.ToArray() : null
            );
        }
        var file = new ComposeFile
        {
            Services = new()
            {
                ["sleeper"] = new ComposeService
                {
                    Image = FakeNodeImage.Busybox,
                    Command = ["sleep", "3600"],
                    Labels = new(gone),
                    Volumes = [$"{StackGenerator.WorkVolumeKey}:/lnb"],
                    Networks = new() { [StackGenerator.RunNetworkKey] = new ComposeServiceNetwork() },
                    Secrets =
                    [
                        new ComposeServiceSecret { Source = SwarmNames.AgentTokenSecret(runId), Target = "token" },
                    ],
                    Deploy = new ComposeDeploy
                    {
                        Labels = new(gone),
                        RestartPolicy = new ComposeRestartPolicy { Condition = "none" },
                    },
                },
            },
            Networks = new()
            {
                [StackGenerator.RunNetworkKey] = new ComposeNetwork
                {
                    External = true,
                    Name = SwarmNames.Network(runId),
                },
            },
            Volumes = new()
            {
                [StackGenerator.WorkVolumeKey] = new ComposeVolume
                {
                    Name = SwarmNames.WorkVolume(runId),
                    Labels = new(gone),
                },
            },
            Secrets = new()
            {
                [SwarmNames.AgentTokenSecret(runId)] = new ComposeSecret
                {
                    External = true,
                    Name = SwarmNames.AgentTokenSecret(runId),
                },
            },
        };
        var images = new Dictionary<string, string>
        {
            [FakeNodeImage.Busybox] = (await engine.InspectImageAsync(FakeNodeImage.Busybox))!.Id,
        };
        // Deployed and never disposed: the harness that made it was killed with -9.
        var left = await SwarmStack.DeployAsync(engine, $"lnbench-{runId}-agents", file, images);
        await left.WaitRunningAsync(TimeSpan.FromSeconds(90));
        // A live run's secret in the same scope: its owner (this process) is alive, so it stays.
        var liveRun = $"{runId}-live";
        var live = new Dictionary<string, string>(Labels()) { [RunLabels.Run] = liveRun };
        await engine.Swarm.CreateSecretAsync($"lnbench-{liveRun}-token", live, "token"u8.ToArray());

        var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync(scope: Scope);

        Assert.Equal([runId], stale);
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
        var liveResources = RunResources.Of(engine, liveRun);
        Assert.Single(await liveResources.SecretsAsync());
        await liveResources.RemoveAsync();
        await AssertNothingLeftAsync();
    }

    [SkippableFact]
    public async Task A_host_that_lacks_an_image_is_named_with_the_image_before_anything_is_deployed()
    {
        var manager = await ReadyAsync();
        const string absent = "lnbench-test/absent:0";

        var error = await Assert.ThrowsAsync<SwarmUnavailableException>(() =>
            SwarmImageCheck.RequireSameAsync(engine, manager, [FakeNodeImage.Busybox, absent])
        );

        Assert.StartsWith($"host {manager.Node.Hostname} lacks image {absent}: ", error.Message);
        Assert.DoesNotContain(FakeNodeImage.Busybox, error.Message);
        Assert.DoesNotContain('\n', error.Message);

        // A run checks before it creates anything.
        var refused = await Assert.ThrowsAsync<SwarmUnavailableException>(() =>
            SwarmRun.StartAsync(engine, runId, Labels(), [FakeNodeImage.Busybox, absent], "token"u8.ToArray())
        );
        Assert.Equal(error.Message, refused.Message);
        await AssertNothingLeftAsync();
    }

    [SkippableFact]
    public async Task A_host_without_an_image_under_the_managers_id_is_found_by_a_one_shot_job_through_the_swarm()
    {
        var manager = await ReadyAsync();
        var present = (await engine.InspectImageAsync(FakeNodeImage.Busybox))!.Id;
        var ids = new Dictionary<string, string>
        {
            [FakeNodeImage.Busybox] = present,
            ["lnbench-test/elsewhere:1"] = $"sha256:{new string('0', 64)}",
        };

        var missing = await new ImageJobProbe(engine, Labels(), TimeSpan.FromSeconds(60)).MissingAsync(
            [manager.Node],
            ids
        );

        var (host, image) = Assert.Single(missing);
        Assert.Equal(manager.Node.Hostname, host.Hostname);
        Assert.Equal("lnbench-test/elsewhere:1", image);
        await AssertNothingLeftAsync();
    }

    [SkippableFact]
    public async Task A_swarm_run_removes_a_finished_topology_with_its_secrets_and_disposed_mid_start_as_on_ctrl_c_leaves_nothing()
    {
        await ReadyAsync();
        var topology = TwoServiceTopology();
        var fragments = NodeKindCatalog.Default.LoadFragments();
        StackSettings Settings(SwarmRun run, int n) =>
            new(runId, $"lnbench-{runId}-{n}", null, run.Labels, run.Manager.Node.Hostname, TraceSockets: false);

        var run = await SwarmRun.StartAsync(engine, runId, Labels(), [FakeNodeImage.FakeNode], "token"u8.ToArray());
        await using (run)
        {
            var (first, _) = await run.DeployTopologyAsync(
                topology,
                Settings(run, 1),
                fragments,
                service => System.Text.Encoding.UTF8.GetBytes($"{service} conf")
            );
            Assert.Equal(2, (await first.WaitRunningAsync(TimeSpan.FromSeconds(90))).Count);
            await run.RemoveTopologyAsync(first.Name);
            Assert.Empty(await Stack(first.Name).ServicesAsync());
            Assert.Empty(await Stack(first.Name).SecretsAsync());
            Assert.Equal([SwarmNames.AgentTokenSecret(runId)], (await Scoped.SecretsAsync()).Select(s => s.Name));

            var (second, _) = await run.DeployTopologyAsync(
                topology,
                Settings(run, 2),
                fragments,
                service => System.Text.Encoding.UTF8.GetBytes($"{service} conf")
            );
            using var ctrlC = new CancellationTokenSource();
            ctrlC.Cancel();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
                second.WaitRunningAsync(TimeSpan.FromSeconds(90), ctrlC.Token)
            );
        }

        await AssertNothingLeftAsync();
    }

    [SkippableFact]
    public async Task A_service_whose_task_fails_is_named_with_its_error_at_once_not_after_the_timeout()
    {
        var manager = await ReadyAsync();
        var labels = Labels();
        var file = new ComposeFile
        {
            Services = new()
            {
                ["ok"] = new ComposeService
                {
                    Image = FakeNodeImage.Busybox,
                    Command = ["sleep", "3600"],
                    Labels = new(labels),
                    Deploy = new ComposeDeploy { Labels = new(labels) },
                },
                ["broken"] = new ComposeService
                {
                    Image = FakeNodeImage.Busybox,
                    Entrypoint = ["/bin/no-such-program"],
                    Labels = new(labels),
                    Deploy = new ComposeDeploy
                    {
                        Labels = new(labels),
                        RestartPolicy = new ComposeRestartPolicy { Condition = "none" },
                    },
                },
            },
        };
        var images = await SwarmImageCheck.RequireSameAsync(engine, manager, [FakeNodeImage.Busybox]);
        await using var deployed = await SwarmStack.DeployAsync(engine, $"lnbench-{runId}-1", file, images);
        var started = DateTime.UtcNow;

        var error = await Assert.ThrowsAsync<Lightning.Bench.Waiting.WaitAbortedException>(() =>
            deployed.WaitRunningAsync(TimeSpan.FromSeconds(90))
        );

        Assert.Contains("service broken's task", error.Message);
        Assert.Contains("no-such-program", error.Message);
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(60));
    }

    /// <summary>
    /// A node on another host dies where the manager sees no "die" event: the swarm's watch follows the stack's tasks
    /// and names the service whose task ended, with its exit code and host; a service still running is not named.
    /// </summary>
    [SkippableFact]
    public async Task A_node_service_whose_task_ends_is_seen_dead_through_the_managers_tasks_with_its_exit_code_and_host()
    {
        var manager = await ReadyAsync();
        var labels = Labels();
        ComposeService Service(params string[] script) =>
            new()
            {
                Image = FakeNodeImage.Busybox,
                Entrypoint = ["sh", "-c", string.Join(' ', script)],
                Labels = new(labels),
                Deploy = new ComposeDeploy
                {
                    Labels = new(labels),
                    RestartPolicy = new ComposeRestartPolicy { Condition = "none" },
                },
            };
        var file = new ComposeFile
        {
            Services = new()
            {
                ["alice"] = Service("sleep 3600"),
                // Runs, then dies: the wait for running must see it up first, and a marker file tells the test it may.
                ["bob"] = Service("until [ -e /tmp/die ]; do sleep 0.1; done; exit 7"),
            },
        };
        var images = await SwarmImageCheck.RequireSameAsync(engine, manager, [FakeNodeImage.Busybox]);
        await using var deployed = await SwarmStack.DeployAsync(engine, $"lnbench-{runId}-1", file, images);
        var tasks = await deployed.WaitRunningAsync(TimeSpan.FromSeconds(120));
        var hosts = (await engine.Swarm.ListNodesAsync()).ToDictionary(n => n.Id, n => n.Hostname);
        var progress = new StringWriter();
        await using var watch = SwarmDeathWatch.Start(
            engine,
            deployed,
            id => hosts.GetValueOrDefault(id, id),
            new Lightning.Bench.Progress.RunProgress(progress)
        );
        Assert.False(watch.Died.IsCancellationRequested);

        var bob = tasks.Single(t => t.Service == "bob");
        Assert.Equal(
            0,
            (
                await engine.ExecAsync(bob.ContainerId, ["sh", "-c", ": > /tmp/die"], null, TimeSpan.FromSeconds(30))
            ).ExitCode
        );
        await Task.Delay(TimeSpan.FromSeconds(120), watch.Died).ContinueWith(_ => { }, TaskScheduler.Default);

        Assert.True(watch.Died.IsCancellationRequested, $"no death seen in 120 s: {progress}");
        Assert.Equal("bob", watch.Death!.Node);
        Assert.Equal(7, watch.Death.ExitCode);
        Assert.Contains($"on host {hosts[bob.NodeId]}", watch.Death.Message);
    }

    [SkippableFact]
    public async Task The_agents_run_from_the_harness_image_one_per_host_are_found_from_the_overlay_and_their_runs_end_sweeps_work_volumes()
    {
        await ReadyAsync();
        var image = await HarnessImage.EnsureAsync(engine);
        var labels = Labels();

        // A killed run's work volume (its overlay network gone), which the run's end takes from every host with a job.
        var stale = SwarmNames.WorkVolume($"{runId}s");
        var made = await Processes.ProcessRunner.RunAsync(
            "docker",
            ["volume", "create", "--label", $"{RunLabels.Run}={runId}s", "--label", Scope, stale],
            TimeSpan.FromSeconds(30)
        );
        Assert.True(made.Succeeded, made.Tail());

        await using (var run = await SwarmRun.StartAsync(engine, runId, labels, [image], AgentToken, sweepScope: Scope))
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var agents = await run.DeployAgentsAsync(image, owner: null);
            var task = Assert.Single(await agents.WaitRunningAsync(TimeSpan.FromSeconds(120)));
            output.WriteLine($"agents deployed and running in {clock.Elapsed.TotalSeconds:0.0} s on {task.Host}");
            Assert.Equal(run.Manager.Node.Hostname, task.Host);

            var service = StackServices.ServiceName(SwarmNames.AgentStack(runId), SwarmNames.AgentService);
            var (found, said) = await ProbeFromOverlayAsync(image, labels, service, AgentToken);
            Assert.True(found == 0, said);
            // The agent says its host from the task's template ({{.Node.Hostname}}), found by `tasks.SERVICE` on the overlay.
            Assert.Matches(
                $@"(?m)^host {System.Text.RegularExpressions.Regex.Escape(task.Host)} at \d+\.\d+\.\d+\.\d+:{SwarmNames.AgentPort}, session \d+$",
                said
            );

            var (refused, why) = await ProbeFromOverlayAsync(
                image,
                labels,
                service,
                "not-the-run-token-at-all"u8.ToArray()
            );
            Assert.Equal(1, refused);
            Assert.Contains("refused the connection: wrong token", why);
        }

        // The run's end took the agents' stack with the rest, and the killed run's work volume (the sweep's job is gone too).
        Assert.DoesNotContain(stale, await Scoped.VolumesAsync());
        Assert.Empty(await Scoped.ServicesAsync());
        Assert.Empty(await Scoped.SecretsAsync());
        Assert.Empty(await Scoped.NetworksAsync());
        Assert.DoesNotContain(
            await Scoped.ContainersAsync(),
            c => c.Labels.GetValueOrDefault(Network.ComposeGenerator.NodeLabel) == SwarmNames.AgentService
        );
    }

    [SkippableFact]
    public async Task Work_volumes_of_runs_not_kept_are_removed_on_every_host_by_a_job_and_nothing_else_is()
    {
        await ReadyAsync();
        var image = await HarnessImage.EnsureAsync(engine);
        var (stale, live) = ($"{runId}s", $"{runId}l");
        // A killed run's work volume, a live run's, and a volume of the killed run that is not a work volume (as a single-host run makes).
        foreach (
            var (name, run) in new[]
            {
                (SwarmNames.WorkVolume(stale), stale),
                (SwarmNames.WorkVolume(live), live),
                ($"lnbench-{stale}-chain", stale),
            }
        )
        {
            var made = await Processes.ProcessRunner.RunAsync(
                "docker",
                ["volume", "create", "--label", $"{RunLabels.Run}={run}", "--label", Scope, name],
                TimeSpan.FromSeconds(30)
            );
            Assert.True(made.Succeeded, made.Tail());
        }
        // Containers a host keeps of a killed run (a job's task, never started) and of a live run's, and a container of the
        // killed run that no swarm made (a single-host run's node).
        await FakeNodeImage.EnsureBuiltAsync();
        var containers = new Dictionary<string, string>();
        foreach (
            var (name, run, task) in new[]
            {
                ("stale-task", stale, true),
                ("live-task", live, true),
                ("stale-single-host", stale, false),
            }
        )
        {
            var containerLabels = new Dictionary<string, string> { [RunLabels.Run] = run, [ScopeLabel] = runId };
            if (task)
            {
                containerLabels["com.docker.swarm.task.id"] = $"task-{name}";
            }
            containers[name] = await engine.CreateContainerAsync(
                $"{runId}-{name}",
                new global::Docker.DotNet.Models.CreateContainerParameters
                {
                    Image = FakeNodeImage.Busybox,
                    Cmd = ["true"],
                    Labels = containerLabels,
                }
            );
        }
        var labels = new Dictionary<string, string> { [ScopeLabel] = runId };

        var failed = await WorkVolumeSweep.OnEveryHostAsync(
            engine,
            image,
            new HashSet<string> { live },
            labels,
            TimeSpan.FromSeconds(120),
            scope: Scope
        );

        Assert.Empty(failed);
        Assert.Equal(
            new[] { $"lnbench-{stale}-chain", SwarmNames.WorkVolume(live) }.Order(StringComparer.Ordinal),
            (await Scoped.VolumesAsync()).Order(StringComparer.Ordinal)
        );
        Assert.Empty(await Scoped.ServicesAsync());
        // The killed run's task container went; the live run's and the single-host one stayed. The job's own container
        // and the one that removes it once it has exited go too (on this host the harness also removes it at once).
        await Wait.UntilAsync(
            "the sweep's own containers to be gone",
            async c =>
            {
                var left = (await Scoped.ContainersAsync(c)).Select(x => x.Name).Order(StringComparer.Ordinal).ToList();
                return left.SequenceEqual(
                    new[] { $"{runId}-live-task", $"{runId}-stale-single-host" }.Order(StringComparer.Ordinal)
                )
                    ? WaitState.Met()
                    : WaitState.NotYet(string.Join(", ", left));
            },
            TimeSpan.FromSeconds(60)
        );
    }

    [SkippableFact]
    public async Task A_container_removes_another_once_it_has_exited_and_then_itself()
    {
        await ReadyAsync();
        var image = await HarnessImage.EnsureAsync(engine);
        await FakeNodeImage.EnsureBuiltAsync();
        var scoped = new Dictionary<string, string> { [ScopeLabel] = runId };
        var target = await engine.CreateContainerAsync(
            $"{runId}-target",
            new global::Docker.DotNet.Models.CreateContainerParameters
            {
                Image = FakeNodeImage.Busybox,
                Cmd = ["sleep", "600"],
                Labels = scoped,
            }
        );
        await engine.StartContainerAsync(target);
        var remover = await engine.CreateContainerAsync(
            $"{runId}-remover",
            new global::Docker.DotNet.Models.CreateContainerParameters
            {
                Image = image,
                Cmd = [WorkVolumeSweep.RemoveWhenExitedCommand, target],
                Labels = scoped,
                HostConfig = new global::Docker.DotNet.Models.HostConfig
                {
                    AutoRemove = true,
                    Binds = [$"{WorkVolumeSweep.DockerSocket}:{WorkVolumeSweep.DockerSocket}"],
                },
            }
        );
        await engine.StartContainerAsync(remover);

        // While the target runs, it stays (the remover waits: running, with the target still there); once it exits, both go.
        await Wait.UntilAsync(
            "the remover to run",
            async c =>
                await engine.InspectContainerAsync(remover, c) is { Running: true }
                    ? WaitState.Met()
                    : WaitState.NotYet("not running yet"),
            TimeSpan.FromSeconds(60)
        );
        await Task.Delay(TimeSpan.FromSeconds(2));
        Assert.True((await engine.InspectContainerAsync(target))?.Running, "the target was removed while it ran");
        var stopped = await Processes.ProcessRunner.RunAsync("docker", ["kill", target], TimeSpan.FromSeconds(30));
        Assert.True(stopped.Succeeded, stopped.Tail());
        await Wait.UntilAsync(
            "the target and the remover to be gone",
            async c =>
            {
                var left = (await Scoped.ContainersAsync(c)).Select(x => x.Name).ToList();
                return left.Count == 0 ? WaitState.Met() : WaitState.NotYet(string.Join(", ", left));
            },
            TimeSpan.FromSeconds(60)
        );
    }

    /// <summary>`agents` in a one-shot container of the harness image attached to the run's overlay: its exit code and output.</summary>
    private async Task<(long ExitCode, string Output)> ProbeFromOverlayAsync(
        string image,
        IReadOnlyDictionary<string, string> labels,
        string service,
        byte[] token
    )
    {
        var tokenFile = Path.Combine(Directory.CreateTempSubdirectory("lnbench-agents-").FullName, "token");
        await File.WriteAllBytesAsync(tokenFile, token);
        var id = await engine.CreateContainerAsync(
            $"{runId}-probe-{Guid.NewGuid():N}"[..40],
            new global::Docker.DotNet.Models.CreateContainerParameters
            {
                Image = image,
                Cmd =
                [
                    "agents",
                    "--service",
                    service,
                    "--token-file",
                    "/run/token",
                    "--expect",
                    "1",
                    "--timeout",
                    "30",
                ],
                Labels = new Dictionary<string, string>(labels),
                HostConfig = new global::Docker.DotNet.Models.HostConfig
                {
                    NetworkMode = SwarmNames.Network(runId),
                    Binds = [$"{tokenFile}:/run/token:ro"],
                },
            }
        );
        try
        {
            await engine.StartContainerAsync(id);
            var exit = await engine.WaitContainerAsync(id, TimeSpan.FromSeconds(90));
            return (exit, await engine.GetLogsAsync(id, 50));
        }
        finally
        {
            await engine.RemoveContainerAsync(id);
            Directory.Delete(Path.GetDirectoryName(tokenFile)!, recursive: true);
        }
    }

    private Task AssertNothingLeftAsync() => Scoped.AssertNoneLeftAsync();
}
