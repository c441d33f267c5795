using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The swarm's <see cref="DeathWatch"/>: a node's container may be on another host, whose engine's "die" events the
/// manager never sees, so it follows the stack's tasks through the manager instead (every <see cref="Poll"/>) and
/// reports the first service whose task has ended (a node service is never restarted: its restart condition is none),
/// with the task's state, exit code and host and the end of the service's log (read through the manager) as the evidence.
/// </summary>
internal static class SwarmDeathWatch
{
    public static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

    private const int LogLines = 20;

    /// <param name="hostOf">A swarm node id's hostname, for the evidence (the id itself when unknown).</param>
    public static DeathWatch Start(
        DockerEngine engine,
        SwarmStack stack,
        Func<string, string> hostOf,
        RunProgress progress,
        TimeSpan? poll = null
    ) =>
        new(
            async (report, ct) =>
            {
                while (true)
                {
                    foreach (var service in stack.Services.Keys)
                    {
                        if (await DeathOfAsync(engine, stack, service, hostOf, ct) is { } death)
                        {
                            report(death);
                            return;
                        }
                    }
                    await Task.Delay(poll ?? Poll, ct);
                }
            },
            $"watching stack {stack.Name}'s tasks for node deaths",
            progress
        );

    /// <summary>The service's death, when its latest task has ended: its state, exit code, host and the end of its log; null while it runs.</summary>
    public static async Task<NodeDiedException?> DeathOfAsync(
        DockerEngine engine,
        SwarmStack stack,
        string service,
        Func<string, string> hostOf,
        CancellationToken ct
    )
    {
        var latest = (await engine.Swarm.ListTasksAsync(stack.Services[service], ct))
            .OrderByDescending(t => t.Timestamp)
            .FirstOrDefault();
        if (latest is not { HasEnded: true })
        {
            return null;
        }
        var name = StackServices.ServiceName(stack.Name, service);
        var log = (await engine.Swarm.GetServiceLogsAsync(name, LogLines, ct)).TrimEnd();
        return new NodeDiedException(
            service,
            latest.ExitCode,
            $"(its task {latest.Describe()} on host {hostOf(latest.NodeId)}; docker service logs {name}){Environment.NewLine}{log}"
        );
    }
}
