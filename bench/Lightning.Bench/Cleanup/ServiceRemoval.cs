using Lightning.Bench.Docker;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Cleanup;

/// <summary>
/// The removal of swarm services that every sweep shares: a run's own (<see cref="ResourceSweeper"/>) and a swarm's
/// stacks and one-off jobs, which use it from above.
/// </summary>
internal static class ServiceRemoval
{
    /// <summary>Removes services, then waits until their tasks and this engine's containers labelled <paramref name="containerFilter"/> are gone.</summary>
    public static async Task RemoveAsync(
        DockerEngine engine,
        IReadOnlyList<ServiceSummary> services,
        string containerFilter,
        string what,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        await Task.WhenAll(services.Select(s => engine.Swarm.RemoveServiceAsync(s.Id, ct)));
        if (services.Count == 0)
        {
            return;
        }
        // A host's swarm agent stops a removed service's containers seconds later (4–5 s here, busy); this host's are
        // removed at once, as a single-host teardown does. Other hosts' go at their agents' pace.
        var local = await engine.ListContainersAsync(containerFilter, ct);
        await Task.WhenAll(local.Select(c => engine.RemoveContainerAsync(c.Id, ct)));
        await Wait.UntilAsync(
            $"the containers of {what} to be removed",
            async t =>
            {
                var ids = services.Select(s => s.Id).ToHashSet();
                // An ended task has no running container; the manager may keep it a while (a job's, here, for minutes).
                var tasks = (await engine.Swarm.ListAllTasksAsync(t)).Count(task =>
                    ids.Contains(task.ServiceId) && !task.HasEnded
                );
                var containers = await engine.ListContainersAsync(containerFilter, t);
                return tasks == 0 && containers.Count == 0
                    ? WaitState.Met()
                    : WaitState.NotYet(
                        $"{tasks} task(s), {containers.Count} container(s) here: {string.Join(", ", containers.Select(c => $"{c.Name} {c.State}"))}"
                    );
            },
            timeout,
            ct,
            TimeSpan.FromMilliseconds(200)
        );
    }
}
