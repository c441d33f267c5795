using Lightning.Bench.Docker;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Network;

/// <summary>
/// Follows the engine's "die" events of one topology's containers and cancels <see cref="Died"/> at the first, with the
/// node's evidence in <see cref="Death"/>. Nothing it meets (a bad event, a failed inspect, an engine gone) escapes it:
/// a watcher must never be the reason a topology is not torn down.
/// </summary>
internal sealed class DeathWatch : IAsyncDisposable
{
    private readonly CancellationTokenSource stop = new();
    private readonly CancellationTokenSource died = new();
    private readonly Task watching;

    /// <param name="describe">Turns a dead container's id into the evidence (its node's name, exit code, log tail).</param>
    public DeathWatch(DockerEngine engine, string labelFilter, Func<string, CancellationToken, Task<NodeDiedException>> describe, RunProgress progress)
    {
        watching = Task.Run(async () =>
        {
            try
            {
                await engine.WatchDeathsAsync(labelFilter, async id =>
                {
                    NodeDiedException death;
                    try
                    {
                        death = await describe(id, stop.Token);
                    }
                    catch (Exception e) when (e is not OperationCanceledException)
                    {
                        death = new NodeDiedException(id, -1, $"(could not read its state: {e.Message})");
                    }
                    if (Death is null)
                    {
                        Death = death;
                        progress.Info($"node '{death.Node}' died (exit {death.ExitCode})");
                    }
                    died.Cancel();
                }, stop.Token);
            }
            catch (Exception e) when (!stop.IsCancellationRequested)
            {
                // The engine stopped answering events: calls and waits notice a dead node on their own.
                progress.Info($"watching for node deaths stopped: {e.Message}");
            }
            catch (Exception)
            {
                // Stopped for teardown.
            }
        });
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
