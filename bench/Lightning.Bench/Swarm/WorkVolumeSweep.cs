using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The runs' work volumes on every host. Swarm objects (services, secrets, networks) are the swarm's and a sweep on the
/// manager removes them, but a named volume is made by each host's engine when a task first mounts it, and only that
/// engine can remove it. So the sweep runs on every host as a one-shot global job of the harness image, with that
/// host's engine socket mounted, removing the work volumes (`lnbench-RUN-work`, labelled with their run) of every run
/// not kept: after a run's end, and at the next start after a run killed with kill -9, when the runs kept are those
/// whose overlay network still exists. Volumes a single-host run made are never touched (not named as a work volume).
/// </summary>
internal static class WorkVolumeSweep
{
    public const string Command = "sweep-work-volumes";

    public const string DockerSocket = "/var/run/docker.sock";

    /// <summary>On this host: removes the work volumes of runs not in <paramref name="keep"/>; a volume a container still uses stays.</summary>
    /// <param name="scope">A label filter that limits the sweep (tests); by default every volume with a run label.</param>
    public static async Task<IReadOnlyList<string>> RemoveLocalAsync(DockerEngine engine, IReadOnlySet<string> keep, string? scope = null, CancellationToken ct = default)
    {
        var removed = new List<string>();
        foreach (var volume in await engine.ListLabelledVolumesAsync(scope ?? RunLabels.Run, ct))
        {
            if (!volume.Labels.TryGetValue(RunLabels.Run, out var run) || keep.Contains(run) || volume.Id != SwarmNames.WorkVolume(run))
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

    /// <summary>The job's arguments to the harness in the image.</summary>
    public static IReadOnlyList<string> Arguments(IReadOnlySet<string> keep, string? scope) =>
        [Command, "--keep", string.Join(',', keep.Order(StringComparer.Ordinal)), .. scope is null ? Array.Empty<string>() : ["--scope", scope]];

    /// <summary>
    /// Runs <see cref="RemoveLocalAsync"/> on every host (a global job) and waits until each host's task has ended;
    /// returns the hosts whose task failed, with why.
    /// </summary>
    public static async Task<IReadOnlyList<string>> OnEveryHostAsync(DockerEngine engine, string harnessImage, IReadOnlySet<string> keep,
        IReadOnlyDictionary<string, string> labels, TimeSpan timeout, string? scope = null, CancellationToken ct = default)
    {
        var hosts = (await engine.Swarm.ListNodesAsync(ct)).Where(n => n.Schedulable).ToList();
        var name = $"lnbench-sweep-{Environment.ProcessId}-{Guid.NewGuid():N}"[..40];
        var service = await engine.Swarm.CreateServiceAsync(new ServiceSpec
        {
            Name = name,
            Labels = labels.ToDictionary(),
            Mode = new ServiceMode { GlobalJob = new GlobalJob() },
            TaskTemplate = new TaskSpec
            {
                ContainerSpec = new ContainerSpec
                {
                    Image = harnessImage,
                    Args = [.. Arguments(keep, scope)],
                    Labels = labels.ToDictionary(),
                    Mounts = [new Mount { Type = "bind", Source = DockerSocket, Target = DockerSocket }],
                },
                RestartPolicy = new SwarmRestartPolicy { Condition = "none" },
            },
        }, ct);
        try
        {
            IReadOnlyList<SwarmTask> ended = [];
            await Wait.UntilAsync("every host to sweep its work volumes", async t =>
            {
                var tasks = await engine.Swarm.ListTasksAsync(service, t);
                ended = tasks.Where(task => task.HasEnded).ToList();
                var waiting = hosts.Where(h => !ended.Any(task => task.NodeId == h.Id)).Select(h => h.Hostname).ToList();
                return waiting.Count == 0 ? WaitState.Met() : WaitState.NotYet($"not done yet: {string.Join(", ", waiting)}");
            }, timeout, ct);
            return ended.Where(task => task.State != "complete")
                .Select(task => $"{hosts.FirstOrDefault(h => h.Id == task.NodeId)?.Hostname ?? task.NodeId}: {task.Describe()}").ToList();
        }
        finally
        {
            await SwarmStack.RemoveServicesAsync(engine, [new ServiceSummary(service, name, labels)], $"com.docker.swarm.service.id={service}",
                "the work volume sweep", SwarmStack.RemovalTimeout, CancellationToken.None);
        }
    }

    /// <summary>`Lightning.Bench sweep-work-volumes --keep RUN,… [--scope LABEL]`, in the job's container on each host.</summary>
    public static int Run(IReadOnlyList<string> args)
    {
        var keep = new HashSet<string>(StringComparer.Ordinal);
        string? scope = null;
        for (var i = 0; i < args.Count; i++)
        {
            if (i + 1 >= args.Count || args[i] is not ("--keep" or "--scope"))
            {
                return Program.Fail(Program.ExitUsage, $"{Command}: unexpected '{args[i]}'; usage: {Command} --keep RUN,… [--scope LABEL]");
            }
            if (args[i] == "--keep")
            {
                keep.UnionWith(args[++i].Split(',', StringSplitOptions.RemoveEmptyEntries));
            }
            else
            {
                scope = args[++i];
            }
        }
        try
        {
            using var engine = new DockerEngine();
            var removed = RemoveLocalAsync(engine, keep, scope).GetAwaiter().GetResult();
            Console.WriteLine($"{Environment.MachineName}: removed {removed.Count} work volume(s){(removed.Count == 0 ? "" : ": " + string.Join(", ", removed))}");
            return 0;
        }
        catch (DockerUnavailableException e)
        {
            return Program.Fail(Program.ExitFailure, e.Message);
        }
    }
}
