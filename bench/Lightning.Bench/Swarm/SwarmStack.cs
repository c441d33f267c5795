using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A stack deployed through the manager's API, as `docker stack deploy` would (its services named STACK_SERVICE and
/// labelled with the stack's namespace, so `docker stack ls`, `ps` and `rm` see it). A handle: wait until its services
/// run, read where; disposing removes it (services, then until their containers are gone), and disposing twice is safe.
/// </summary>
internal sealed class SwarmStack : IAsyncDisposable
{
    /// <summary>How long a removal waits for the nodes to take the stack's containers down.</summary>
    public static readonly TimeSpan RemovalTimeout = TimeSpan.FromSeconds(60);

    /// <summary>The secrets a stack file names are the run's, created with its labels: only those are looked up.</summary>
    private const string StackServicesSecretFilter = Cleanup.RunLabels.Run;

    private readonly DockerEngine engine;
    private readonly IReadOnlyDictionary<string, string> restartConditions;
    private int disposed;

    private SwarmStack(
        DockerEngine engine,
        string name,
        IReadOnlyDictionary<string, string> services,
        IReadOnlyDictionary<string, string> restartConditions
    )
    {
        this.engine = engine;
        Name = name;
        Services = services;
        this.restartConditions = restartConditions;
    }

    public string Name { get; }

    /// <summary>The stack file's service name → the swarm service's id.</summary>
    public IReadOnlyDictionary<string, string> Services { get; }

    /// <summary>
    /// Creates the stack's services (every spec is built, and so checked, first). The network and secrets the file
    /// refers to must exist (<see cref="SwarmRunResources"/>). A failure removes what was created.
    /// </summary>
    /// <param name="imageIds">Image name → id from the image check: those services are pinned to the id.</param>
    public static async Task<SwarmStack> DeployAsync(
        DockerEngine engine,
        string name,
        ComposeFile file,
        IReadOnlyDictionary<string, string>? imageIds = null,
        CancellationToken ct = default
    )
    {
        var secrets = (await engine.Swarm.ListSecretsAsync(StackServicesSecretFilter, ct)).ToDictionary(
            s => s.Name,
            s => s.Id
        );
        var specs = StackServices.For(name, file, secrets, imageIds);
        var created = new Dictionary<string, string>();
        try
        {
            foreach (var spec in specs)
            {
                created[spec.Name![(name.Length + 1)..]] = await engine.Swarm.CreateServiceAsync(spec, ct);
            }
        }
        catch
        {
            await RemoveAsync(engine, name, RemovalTimeout, CancellationToken.None);
            throw;
        }
        var conditions = file.Services.ToDictionary(s => s.Key, s => s.Value.Deploy?.RestartPolicy?.Condition ?? "any");
        return new SwarmStack(engine, name, created, conditions);
    }

    /// <summary>
    /// Waits until every service's task runs, then says where each runs. A timeout names the services not running and
    /// their tasks' last state and error; a task that ended in a service that never restarts fails the wait at once.
    /// Replicated services of one replica only (a global service has a task per host: <see cref="TasksAsync"/>).
    /// </summary>
    public async Task<IReadOnlyList<StackTask>> WaitRunningAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        IReadOnlyList<StackTask> running = [];
        await Wait.UntilAsync(
            $"the services of stack {Name} to run",
            async t =>
            {
                var seen = new List<string>();
                var found = new List<StackTask>();
                foreach (var (service, id) in Services)
                {
                    var tasks = await engine.Swarm.ListTasksAsync(id, t);
                    var latest = tasks.OrderByDescending(task => task.Timestamp).FirstOrDefault();
                    if (latest is { IsRunning: true, ContainerId: not null })
                    {
                        found.Add(await TaskOfAsync(service, latest, t));
                        continue;
                    }
                    var state = latest?.Describe() ?? "no task yet";
                    if (latest is { HasEnded: true } && restartConditions.GetValueOrDefault(service) == "none")
                    {
                        throw new WaitAbortedException(
                            $"stack {Name}: service {service}'s task {state} and is not restarted"
                        );
                    }
                    seen.Add($"{service}: {state}");
                }
                running = found;
                return seen.Count == 0 ? WaitState.Met() : WaitState.NotYet(string.Join("; ", seen));
            },
            timeout,
            ct
        );
        return running;
    }

    /// <summary>Every task of the stack's services that runs now (a global service's, one per host).</summary>
    public async Task<IReadOnlyList<StackTask>> TasksAsync(CancellationToken ct = default)
    {
        var tasks = new List<StackTask>();
        foreach (var (service, id) in Services)
        {
            foreach (
                var task in (await engine.Swarm.ListTasksAsync(id, ct)).Where(t =>
                    t is { IsRunning: true, ContainerId: not null }
                )
            )
            {
                tasks.Add(await TaskOfAsync(service, task, ct));
            }
        }
        return tasks;
    }

    /// <summary>
    /// Removes a stack by its namespace label, as `docker stack rm`: its services, then waits until the manager has no
    /// task of them and this engine no container of them (each host removes its own; the manager sees every host's tasks).
    /// </summary>
    public static async Task RemoveAsync(
        DockerEngine engine,
        string stack,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        var services = await engine.Swarm.ListServicesAsync($"{StackServices.NamespaceLabel}={stack}", ct);
        await ServiceRemoval.RemoveAsync(
            engine,
            services,
            $"{StackServices.NamespaceLabel}={stack}",
            $"stack {stack}",
            timeout,
            ct
        );
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref disposed, 1) == 1)
        {
            return;
        }
        await RemoveAsync(engine, Name, RemovalTimeout);
    }

    private async Task<StackTask> TaskOfAsync(string service, SwarmTask task, CancellationToken ct)
    {
        var node = await engine.Swarm.InspectNodeAsync(task.NodeId, ct);
        return new StackTask(
            service,
            task.ServiceId,
            task.Id,
            task.ContainerId!,
            task.NodeId,
            node?.Hostname ?? task.NodeId,
            task.Pid
        );
    }
}
