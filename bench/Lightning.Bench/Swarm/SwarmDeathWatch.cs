using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The swarm's <see cref="DeathWatch"/>: a node's container may be on another host, whose engine's "die" events the
/// manager never sees, so it follows the stack's tasks through the manager instead (every <see cref="Poll"/>) and
/// cancels <see cref="Died"/> at the first service whose task has ended (a node service is never restarted: its
/// restart condition is none), with the task's state, exit code and host as the evidence. Nothing it meets escapes
/// it: a watcher must never be the reason a topology is not torn down.
/// </summary>
internal sealed class SwarmDeathWatch : IAsyncDisposable
{
    public static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

    private readonly CancellationTokenSource stop = new();
    private readonly CancellationTokenSource died = new();
    private readonly Task watching;

    /// <param name="hostOf">A swarm node id's hostname, for the evidence (the id itself when unknown).</param>
    public SwarmDeathWatch(DockerEngine engine, SwarmStack stack, Func<string, string> hostOf, RunProgress progress, TimeSpan? poll = null)
    {
        watching = Task.Run(async () =>
        {
            try
            {
                while (!stop.IsCancellationRequested)
                {
                    foreach (var (service, id) in stack.Services)
                    {
                        var latest = (await engine.Swarm.ListTasksAsync(id, stop.Token)).OrderByDescending(t => t.Timestamp).FirstOrDefault();
                        if (latest is { HasEnded: true })
                        {
                            Death = new NodeDiedException(service, latest.ExitCode,
                                $"(its task {latest.Describe()} on host {hostOf(latest.NodeId)}; its log: docker service logs {stack.Name}_{service})");
                            progress.Info($"node '{service}' died (exit {latest.ExitCode}, task {latest.State} on host {hostOf(latest.NodeId)})");
                            died.Cancel();
                            return;
                        }
                    }
                    await Task.Delay(poll ?? Poll, stop.Token);
                }
            }
            catch (Exception e) when (!stop.IsCancellationRequested)
            {
                // The manager stopped answering: calls and waits notice a dead node on their own.
                progress.Info($"watching stack {stack.Name}'s tasks for node deaths stopped: {e.Message}");
            }
            catch (Exception)
            {
                // Stopped for teardown.
            }
        });
    }

    /// <summary>Cancelled the moment a service of the stack has a task that ended.</summary>
    public CancellationToken Died => died.Token;

    /// <summary>The first death seen, with its evidence.</summary>
    public NodeDiedException? Death { get; private set; }

    /// <summary>Stops watching (teardown is about to remove the stack); never throws.</summary>
    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        await watching;
    }
}
