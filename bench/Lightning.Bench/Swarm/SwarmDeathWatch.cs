using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The swarm's <see cref="DeathWatch"/>: a node's container may be on another host, whose engine's "die" events the
/// manager never sees, so it follows the stack's tasks through the manager instead (every <see cref="Poll"/>) and
/// reports the first service whose task has ended (a node service is never restarted: its restart condition is none),
/// with the task's state, exit code and host as the evidence.
/// </summary>
internal static class SwarmDeathWatch
{
    public static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

    /// <param name="hostOf">A swarm node id's hostname, for the evidence (the id itself when unknown).</param>
    public static DeathWatch Start(DockerEngine engine, SwarmStack stack, Func<string, string> hostOf, RunProgress progress, TimeSpan? poll = null) =>
        new(async (report, ct) =>
        {
            while (true)
            {
                foreach (var (service, id) in stack.Services)
                {
                    var latest = (await engine.Swarm.ListTasksAsync(id, ct)).OrderByDescending(t => t.Timestamp).FirstOrDefault();
                    if (latest is { HasEnded: true })
                    {
                        report(new NodeDiedException(service, latest.ExitCode,
                            $"(its task {latest.Describe()} on host {hostOf(latest.NodeId)}; its log: docker service logs {stack.Name}_{service})"));
                        return;
                    }
                }
                await Task.Delay(poll ?? Poll, ct);
            }
        }, $"watching stack {stack.Name}'s tasks for node deaths", progress);
}
