using Lightning.Bench.Docker;

namespace Lightning.Bench.Network;

/// <summary>
/// The one place a dead node's evidence is gathered: its name, exit code and the end of its log; for a node on another
/// host (<paramref name="remote"/>), through the swarm's manager.
/// </summary>
internal sealed class NodeEvidence(
    DockerEngine engine,
    NodeLogs logs,
    IReadOnlyDictionary<string, string> containers,
    IRemoteNodeState? remote = null
)
{
    /// <summary>The evidence of the container with this id (the death watch knows only the id).</summary>
    public async Task<NodeDiedException> DescribeAsync(string containerId, CancellationToken ct = default)
    {
        var name = containers.FirstOrDefault(c => c.Value == containerId).Key ?? containerId;
        return await DescribeAsync(name, containerId, await engine.InspectContainerAsync(containerId, ct), ct);
    }

    /// <summary>Throws <see cref="NodeDiedException"/> for the first node whose container is no longer running.</summary>
    public async Task ThrowIfAnyDiedAsync(CancellationToken ct = default)
    {
        foreach (var (name, id) in containers)
        {
            if (remote is not null && remote.IsRemote(name))
            {
                if (await remote.DeathOfAsync(name, ct) is { } death)
                {
                    throw death;
                }
                continue;
            }
            var details = await engine.InspectContainerAsync(id, ct);
            if (details is null || !details.Running)
            {
                throw await DescribeAsync(name, id, details, ct);
            }
        }
    }

    /// <summary>The evidence from one inspection of the container (null: it is gone).</summary>
    private async Task<NodeDiedException> DescribeAsync(
        string name,
        string containerId,
        ContainerDetails? details,
        CancellationToken ct
    ) =>
        details is null
            ? new NodeDiedException(name, -1, "(container removed)")
            : new NodeDiedException(name, details.ExitCode, await logs.TailAsync(name, containerId, ct));
}
