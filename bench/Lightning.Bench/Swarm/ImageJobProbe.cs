using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm;

/// <summary>
/// Asks every host for an image through the swarm, with no engine socket mounted anywhere and no registry: per image a
/// one-shot job on each host (a global job, Docker 20.10+), its image given by id. A host never pulls an image named by
/// id, so a host that lacks that id rejects its task with "No such image", and the task names its node; a host that
/// has it creates the container, which proves it, whatever the probe command then does. A job runs on the hosts asked
/// only (every other node excluded by id): a task on a host not waited for could still be starting when the job is
/// removed, and its container then stays behind (seen on the manager's host, when a side-by-side share asked another).
/// The jobs carry the run's labels, so a sweep removes any left.
/// </summary>
internal sealed class ImageJobProbe(DockerEngine engine, IReadOnlyDictionary<string, string> labels, TimeSpan timeout)
    : IHostImageProbe
{
    /// <summary>Run in the probe's container: it need not exist (creating the container is the proof).</summary>
    public static readonly IReadOnlyList<string> ProbeCommand = ["/lnbench-image-probe"];

    public async Task<IReadOnlyList<(SwarmNode Host, string Image)>> MissingAsync(
        IReadOnlyList<SwarmNode> hosts,
        IReadOnlyDictionary<string, string> imageIds,
        CancellationToken ct = default
    )
    {
        var missing = new List<(SwarmNode, string)>();
        var wanted = hosts.Select(h => h.Id).ToHashSet();
        var elsewhere = (await engine.Swarm.ListNodesAsync(ct))
            .Where(n => !wanted.Contains(n.Id))
            .Select(n => $"node.id != {n.Id}")
            .ToList();
        var index = 0;
        foreach (var (image, id) in imageIds)
        {
            var name = $"lnbench-probe-{Environment.ProcessId}-{index++}-{Guid.NewGuid():N}"[..40];
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
                            Image = id,
                            Command = ProbeCommand.ToList(),
                            Labels = labels.ToDictionary(),
                        },
                        RestartPolicy = new SwarmRestartPolicy { Condition = "none" },
                        Placement = elsewhere.Count > 0 ? new Placement { Constraints = elsewhere } : null,
                    },
                },
                ct
            );
            try
            {
                IReadOnlyList<SwarmTask> ended = [];
                await Wait.UntilAsync(
                    $"every host to try image {image} ({id})",
                    async t =>
                    {
                        var tasks = (await engine.Swarm.ListTasksAsync(service, t))
                            .Where(task => wanted.Contains(task.NodeId))
                            .ToList();
                        ended = tasks.Where(task => task.HasEnded || task.IsRunning).ToList();
                        var waiting = hosts
                            .Where(h => !ended.Any(task => task.NodeId == h.Id))
                            .Select(h => h.Hostname)
                            .ToList();
                        return waiting.Count == 0
                            ? WaitState.Met()
                            : WaitState.NotYet($"no answer yet from {string.Join(", ", waiting)}");
                    },
                    timeout,
                    ct
                );
                missing.AddRange(
                    hosts
                        .Where(h =>
                            ended.Any(task =>
                                task.NodeId == h.Id
                                && (task.Error ?? "").Contains("No such image", StringComparison.OrdinalIgnoreCase)
                            )
                        )
                        .Select(h => (h, image))
                );
            }
            finally
            {
                await ServiceRemoval.RemoveAsync(
                    engine,
                    [new ServiceSummary(service, name, labels)],
                    $"com.docker.swarm.service.id={service}",
                    $"the probe of image {image}",
                    SwarmStack.RemovalTimeout,
                    CancellationToken.None
                );
            }
        }
        return missing;
    }
}
