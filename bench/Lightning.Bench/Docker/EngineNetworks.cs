using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>Networks through the engine: the bridge networks a topology makes and a swarm run's overlay, found and removed by label.</summary>
internal sealed class EngineNetworks(EngineConnection connection)
{
    public Task<IReadOnlyList<string>> ListAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            "list networks",
            async (client, t) =>
                (IReadOnlyList<string>)
                    (
                        await client.Networks.ListNetworksAsync(
                            new NetworksListParameters { Filters = EngineFilters.Label(labelFilter) },
                            t
                        )
                    )
                        .Select(n => n.ID)
                        .ToList(),
            ct
        );

    /// <summary>The networks with this label, with all their labels.</summary>
    public Task<IReadOnlyList<LabelledResource>> ListLabelledAsync(
        string labelFilter,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            "list networks",
            async (client, t) =>
                (IReadOnlyList<LabelledResource>)
                    (
                        await client.Networks.ListNetworksAsync(
                            new NetworksListParameters { Filters = EngineFilters.Label(labelFilter) },
                            t
                        )
                    )
                        .Select(n => new LabelledResource(
                            n.ID,
                            new Dictionary<string, string>(n.Labels ?? new Dictionary<string, string>())
                        ))
                        .ToList(),
            ct
        );

    /// <summary>The id of the network of exactly this name, or null.</summary>
    public Task<string?> FindAsync(string name, CancellationToken ct = default) =>
        connection.CallAsync(
            $"find network {name}",
            async (client, t) =>
                (
                    await client.Networks.ListNetworksAsync(
                        new NetworksListParameters { Filters = EngineFilters.Of(("name", name)) },
                        t
                    )
                )
                    .FirstOrDefault(n => n.Name == name)
                    ?.ID,
            ct
        );

    /// <summary>Creates a swarm-scoped overlay network (a manager's call) that containers outside services may join
    /// (attachable: the harness's own container); returns its id.</summary>
    public Task<string> CreateOverlayAsync(
        string name,
        IReadOnlyDictionary<string, string> labels,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            $"create overlay network {name}",
            async (client, t) =>
                (
                    await client.Networks.CreateNetworkAsync(
                        new NetworksCreateParameters
                        {
                            Name = name,
                            Driver = "overlay",
                            Attachable = true,
                            Labels = labels.ToDictionary(),
                        },
                        t
                    )
                ).ID,
            ct
        );

    /// <summary>Creates a bridge network with these labels; returns its id.</summary>
    public Task<string> CreateAsync(
        string name,
        IReadOnlyDictionary<string, string> labels,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            $"create network {name}",
            async (client, t) =>
                (
                    await client.Networks.CreateNetworkAsync(
                        new NetworksCreateParameters
                        {
                            Name = name,
                            Driver = "bridge",
                            Labels = labels.ToDictionary(),
                        },
                        t
                    )
                ).ID,
            ct
        );

    /// <summary>Removes a network (one already gone is no error).</summary>
    public Task RemoveAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"remove network {id}",
            async (client, t) =>
            {
                try
                {
                    await client.Networks.DeleteNetworkAsync(id, t);
                }
                catch (global::Docker.DotNet.DockerApiException e)
                    when (e.StatusCode == System.Net.HttpStatusCode.InternalServerError
                        && e.Message.Contains("not found", StringComparison.OrdinalIgnoreCase)
                    )
                {
                    // A swarm's overlay network still listed while the swarm removes it (its last task just ended)
                    // answers 500 "not found" (engine 20.10): it is gone, as asked.
                }
                return true;
            },
            ct
        );
}
