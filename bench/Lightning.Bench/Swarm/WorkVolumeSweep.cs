using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Progress;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm;

/// <summary>
/// What a swarm run leaves on every host. Swarm objects (services, secrets, networks) are the swarm's and a sweep on the
/// manager removes them, but a named volume is made by each host's engine when a task first mounts it, and only that
/// engine can remove it; nor does a host remove the containers of one-shot jobs (the image probes, this sweep) when
/// their service is removed. So the sweep runs on every host as a one-shot global job of the harness image, with that
/// host's engine socket mounted, removing the containers (labelled with their run) and work volumes
/// (`lnbench-RUN-work`, labelled with their run) of every run not kept: after a run's end, and at the next start after
/// a run killed with kill -9, when the runs kept are those whose overlay network still exists. Its own container goes
/// last: a container it starts with auto-remove removes it once it has exited. Volumes a single-host run made are never
/// touched (not named as a work volume).
/// </summary>
internal static class WorkVolumeSweep
{
    public const string Command = "sweep-work-volumes";

    /// <summary>Run in the container that removes the sweep's own once it has exited.</summary>
    public const string RemoveWhenExitedCommand = "remove-when-exited";

    public const string DockerSocket = "/var/run/docker.sock";

    /// <summary>The swarm's label naming a task container's service.</summary>
    private const string ServiceNameLabel = "com.docker.swarm.service.name";

    /// <summary>The swarm's label of a task's container: what tells a swarm run's containers from a single-host run's.</summary>
    private const string TaskLabel = "com.docker.swarm.task.id";

    private const string RemoverPrefix = "lnbench-remove-";

    /// <summary>A swarm run's container on this host: a task's (a node, an agent, a job) or a helper an agent or this sweep made; never a single-host run's.</summary>
    private static bool OfSwarmRun(ContainerSummary container) =>
        container.Labels.ContainsKey(TaskLabel)
        || container.Name.StartsWith(Relay.ContainerPerfRunner.NamePrefix, StringComparison.Ordinal)
        || container.Name.StartsWith(RemoverPrefix, StringComparison.Ordinal);

    /// <summary>
    /// On this host: removes the containers of swarm runs (<see cref="OfSwarmRun"/>), then the work volumes, of runs
    /// not in <paramref name="keep"/> (a volume a container still uses stays); the containers of service
    /// <paramref name="self"/> (the sweep's own) are left.
    /// </summary>
    /// <param name="scope">A label filter that limits the sweep (tests); by default everything with a run label.</param>
    public static async Task<IReadOnlyList<string>> RemoveLocalAsync(
        DockerEngine engine,
        IReadOnlySet<string> keep,
        string? scope = null,
        CancellationToken ct = default,
        string? self = null
    )
    {
        foreach (var container in await engine.ListContainersAsync(scope ?? RunLabels.Run, ct))
        {
            if (
                container.Labels.TryGetValue(RunLabels.Run, out var run)
                && !keep.Contains(run)
                && OfSwarmRun(container)
                && (self is null || container.Labels.GetValueOrDefault(ServiceNameLabel) != self)
            )
            {
                await engine.RemoveContainerAsync(container.Id, ct);
            }
        }
        var removed = new List<string>();
        foreach (var volume in await engine.ListLabelledVolumesAsync(scope ?? RunLabels.Run, ct))
        {
            if (
                !volume.Labels.TryGetValue(RunLabels.Run, out var run)
                || keep.Contains(run)
                || volume.Id != SwarmNames.WorkVolume(run)
            )
            {
                continue;
            }
            try
            {
                await engine.RemoveVolumeAsync(volume.Id, ct);
                removed.Add(volume.Id);
            }
            catch (DockerApiException)
            {
                // In use (a task of the run still mounts it): the next sweep takes it.
            }
        }
        return removed;
    }

    /// <summary>The job's arguments to the harness in the image: the runs to keep, its own service and image (for the container that removes its own).</summary>
    public static IReadOnlyList<string> Arguments(
        IReadOnlySet<string> keep,
        string? scope,
        string? self = null,
        string? image = null
    ) =>
        [
            Command,
            "--keep",
            string.Join(',', keep.Order(StringComparer.Ordinal)),
            .. scope is null ? Array.Empty<string>() : ["--scope", scope],
            .. self is null || image is null ? Array.Empty<string>() : ["--self", self, "--image", image],
        ];

    /// <summary>
    /// Runs <see cref="RemoveLocalAsync"/> on every host (a global job) and waits until each host's task has ended;
    /// returns the hosts whose task failed, with why.
    /// </summary>
    public static async Task<IReadOnlyList<string>> OnEveryHostAsync(
        DockerEngine engine,
        string harnessImage,
        IReadOnlySet<string> keep,
        IReadOnlyDictionary<string, string> labels,
        TimeSpan timeout,
        string? scope = null,
        CancellationToken ct = default
    )
    {
        var hosts = (await engine.Swarm.ListNodesAsync(ct)).Where(n => n.Schedulable).ToList();
        var name = $"lnbench-sweep-{Environment.ProcessId}-{Guid.NewGuid():N}"[..40];
        var service = await engine.Swarm.CreateServiceAsync(
            new ServiceSpec
            {
                Name = name,
                Labels = labels.ToDictionary(),
                Mode = new ServiceMode { GlobalJob = new GlobalJob() },
                TaskTemplate = new TaskSpec
                {
                    ContainerSpec = new ContainerSpec
                    {
                        Image = harnessImage,
                        Args = [.. Arguments(keep, scope, name, harnessImage)],
                        Labels = labels.ToDictionary(),
                        Mounts =
                        [
                            new Mount
                            {
                                Type = "bind",
                                Source = DockerSocket,
                                Target = DockerSocket,
                            },
                        ],
                    },
                    RestartPolicy = new SwarmRestartPolicy { Condition = "none" },
                },
            },
            ct
        );
        try
        {
            IReadOnlyList<SwarmTask> ended = [];
            await Wait.UntilAsync(
                "every host to sweep its work volumes",
                async t =>
                {
                    var tasks = await engine.Swarm.ListTasksAsync(service, t);
                    ended = tasks.Where(task => task.HasEnded).ToList();
                    var waiting = hosts
                        .Where(h => !ended.Any(task => task.NodeId == h.Id))
                        .Select(h => h.Hostname)
                        .ToList();
                    return waiting.Count == 0
                        ? WaitState.Met()
                        : WaitState.NotYet($"not done yet: {string.Join(", ", waiting)}");
                },
                timeout,
                ct
            );
            return ended
                .Where(task => task.State != "complete")
                .Select(task =>
                    $"{hosts.FirstOrDefault(h => h.Id == task.NodeId)?.Hostname ?? task.NodeId}: {task.Describe()}"
                )
                .ToList();
        }
        finally
        {
            await ServiceRemoval.RemoveAsync(
                engine,
                [new ServiceSummary(service, name, labels)],
                $"com.docker.swarm.service.id={service}",
                "the work volume sweep",
                SwarmStack.RemovalTimeout,
                CancellationToken.None
            );
            // This host's job container is gone with the service: its remover ends at once; the run ends after it. The
            // remover carries the job's labels: found by the run's (a test's sweep has only its scope's).
            var filter = labels.TryGetValue(RunLabels.Run, out var run)
                ? $"{RunLabels.Run}={run}"
                : $"{labels.First().Key}={labels.First().Value}";
            await Wait.UntilAsync(
                "the sweep's remover on this host to end",
                async t =>
                    (await engine.ListContainersAsync(filter, t)).FirstOrDefault(c =>
                        c.Name.StartsWith(RemoverPrefix, StringComparison.Ordinal)
                    )
                        is { } left
                        ? WaitState.NotYet($"{left.Name} is {left.State}")
                        : WaitState.Met(),
                SwarmStack.RemovalTimeout,
                CancellationToken.None
            );
        }
    }

    /// <summary>
    /// `Lightning.Bench sweep-work-volumes --keep RUN,… [--scope LABEL] [--self SERVICE --image IMAGE]`, in the job's
    /// container on each host; with --self, a container of IMAGE (auto-removed) then removes the job's own once it has exited.
    /// </summary>
    public static int Run(IReadOnlyList<string> args)
    {
        var keep = new HashSet<string>(StringComparer.Ordinal);
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i < args.Count; i++)
        {
            if (i + 1 >= args.Count || args[i] is not ("--keep" or "--scope" or "--self" or "--image"))
            {
                return HarnessExit.Fail(
                    HarnessExit.Usage,
                    $"{Command}: unexpected '{args[i]}'; usage: {Command} --keep RUN,… [--scope LABEL] [--self SERVICE --image IMAGE]"
                );
            }
            if (args[i] == "--keep")
            {
                keep.UnionWith(args[++i].Split(',', StringSplitOptions.RemoveEmptyEntries));
            }
            else
            {
                values[args[i]] = args[++i];
            }
        }
        try
        {
            using var engine = new DockerEngine();
            var self = values.GetValueOrDefault("--self");
            var removed = RemoveLocalAsync(engine, keep, values.GetValueOrDefault("--scope"), self: self)
                .GetAwaiter()
                .GetResult();
            Console.WriteLine(
                $"{Environment.MachineName}: removed {removed.Count} work volume(s){(removed.Count == 0 ? "" : ": " + string.Join(", ", removed))}"
            );
            if (self is not null && values.GetValueOrDefault("--image") is { } image)
            {
                RemoveOwnWhenExitedAsync(engine, self, image).GetAwaiter().GetResult();
            }
            return 0;
        }
        catch (Exception e) when (e is DockerUnavailableException or DockerApiException)
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
    }

    /// <summary>Starts an auto-removed container that waits for this job's own container (its service's task here) to exit, then removes it.</summary>
    private static async Task RemoveOwnWhenExitedAsync(DockerEngine engine, string self, string image)
    {
        var own = (await engine.ListContainersAsync($"{ServiceNameLabel}={self}")).FirstOrDefault(c =>
            c.State == "running"
        );
        if (own is null)
        {
            return;
        }
        var remover = await engine.CreateContainerAsync(
            $"{RemoverPrefix}{own.Id[..12]}",
            new CreateContainerParameters
            {
                Image = image,
                Cmd = [RemoveWhenExitedCommand, own.Id],
                Labels = own.Labels.Where(l => l.Key.StartsWith("lnbench.", StringComparison.Ordinal)).ToDictionary(),
                HostConfig = new HostConfig { AutoRemove = true, Binds = [$"{DockerSocket}:{DockerSocket}"] },
            }
        );
        await engine.StartContainerAsync(remover);
    }

    /// <summary>`Lightning.Bench remove-when-exited CONTAINER`: waits (at most 10 minutes) for the container to exit, then removes it.</summary>
    public static int RemoveWhenExited(IReadOnlyList<string> args)
    {
        if (args.Count != 1)
        {
            return HarnessExit.Fail(
                HarnessExit.Usage,
                $"{RemoveWhenExitedCommand}: usage: {RemoveWhenExitedCommand} CONTAINER"
            );
        }
        try
        {
            using var engine = new DockerEngine();
            engine.WaitContainerAsync(args[0], TimeSpan.FromMinutes(10)).GetAwaiter().GetResult();
            engine.RemoveContainerAsync(args[0]).GetAwaiter().GetResult();
            return 0;
        }
        catch (Exception e) when (e is DockerUnavailableException or DockerApiException or TimeoutException)
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
    }
}
