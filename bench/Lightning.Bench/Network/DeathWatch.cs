using Lightning.Bench.Docker;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Network;

/// <summary>
/// Follows one topology's nodes and cancels <see cref="Died"/> at the first death, with the node's evidence in
/// <see cref="Death"/>: on one host through the engine's "die" events of its containers, on a swarm through the
/// stack's tasks (<see cref="Swarm.SwarmDeathWatch"/>). Nothing it meets (a bad event, a failed inspect, an engine
/// gone) escapes it: a watcher must never be the reason a topology is not torn down.
/// </summary>
internal sealed class DeathWatch : IAsyncDisposable
{
    private readonly CancellationTokenSource stop = new();
    private readonly CancellationTokenSource died = new();
    private readonly Task watching;
    private readonly HashSet<string> expected = new();

    /// <param name="describe">Turns a dead container's id into the evidence (its node's name, exit code, log tail).</param>
    public DeathWatch(
        DockerEngine engine,
        string labelFilter,
        Func<string, CancellationToken, Task<NodeDiedException>> describe,
        RunProgress progress
    )
        : this(
            (report, ct) =>
                engine.WatchDeathsAsync(
                    labelFilter,
                    async id =>
                    {
                        NodeDiedException death;
                        try
                        {
                            death = await describe(id, ct);
                        }
                        catch (Exception e) when (e is not OperationCanceledException)
                        {
                            death = new NodeDiedException(id, -1, $"(could not read its state: {e.Message})");
                        }
                        report(death);
                    },
                    ct
                ),
            "watching for node deaths",
            progress
        ) { }

    /// <param name="follow">Follows the topology until stopped, reporting each death it sees (the first counts).</param>
    /// <param name="what">What stops when following fails ("watching for node deaths"), for the progress line.</param>
    public DeathWatch(
        Func<Action<NodeDiedException>, CancellationToken, Task> follow,
        string what,
        RunProgress progress
    )
    {
        watching = Task.Run(async () =>
        {
            try
            {
                await follow(
                    death =>
                    {
                        lock (expected)
                        {
                            if (expected.Contains(death.Node))
                            {
                                // Stopped on purpose (a restart): no death.
                                return;
                            }
                        }
                        if (Death is null)
                        {
                            Death = death;
                            progress.Info($"node '{death.Node}' died (exit {death.ExitCode})");
                        }
                        died.Cancel();
                    },
                    stop.Token
                );
            }
            catch (Exception e) when (!stop.IsCancellationRequested)
            {
                // The engine stopped answering: calls and waits notice a dead node on their own.
                progress.Info($"{what} stopped: {e.Message}");
            }
            catch (Exception)
            {
                // Stopped for teardown.
            }
        });
    }

    /// <summary>
    /// While the returned handle is held, <paramref name="node"/>'s exits are no deaths (it is being restarted). Held
    /// until the node answers again, so the engine's report of its exit, which can come a moment after the stop, is
    /// still covered.
    /// </summary>
    public IDisposable Expect(string node)
    {
        lock (expected)
        {
            expected.Add(node);
        }
        return new Release(() =>
        {
            lock (expected)
            {
                expected.Remove(node);
            }
        });
    }

    private sealed class Release(Action release) : IDisposable
    {
        public void Dispose() => release();
    }

    /// <summary>Cancelled the moment a container of the topology dies.</summary>
    public CancellationToken Died => died.Token;

    /// <summary>The first death seen, with its evidence.</summary>
    public NodeDiedException? Death { get; private set; }

    /// <summary>Stops watching (teardown is about to kill the containers); never throws.</summary>
    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        await watching;
    }
}
