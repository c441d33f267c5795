using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>Networks through the engine: the bridge networks a topology makes, found and removed by label.</summary>
internal sealed class EngineNetworks(EngineConnection connection)
{
    public Task<IReadOnlyList<string>> ListAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync("list networks", async (client, t) =>
            (IReadOnlyList<string>)(await client.Networks.ListNetworksAsync(new NetworksListParameters { Filters = EngineFilters.Label(labelFilter) }, t))
                .Select(n => n.ID).ToList(), ct);

    /// <summary>Creates a bridge network with these labels; returns its id.</summary>
    public Task<string> CreateAsync(string name, IReadOnlyDictionary<string, string> labels, CancellationToken ct = default) =>
        connection.CallAsync($"create network {name}", async (client, t) =>
            (await client.Networks.CreateNetworkAsync(new NetworksCreateParameters { Name = name, Driver = "bridge", Labels = labels.ToDictionary() }, t)).ID, ct);

    /// <summary>Removes a network (one already gone is no error).</summary>
    public Task RemoveAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync($"remove network {id}", async (client, t) =>
        {
            await client.Networks.DeleteNetworkAsync(id, t);
            return true;
        }, ct);
}
