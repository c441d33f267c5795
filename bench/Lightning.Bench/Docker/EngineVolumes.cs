using System.Net;
using Docker.DotNet.Models;
using EngineApiException = Docker.DotNet.DockerApiException;

namespace Lightning.Bench.Docker;

/// <summary>Volumes through the engine: found and removed by label (a run makes none itself; a crashed one may leave some).</summary>
internal sealed class EngineVolumes(EngineConnection connection)
{
    public Task<IReadOnlyList<string>> ListAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync("list volumes", async (client, t) =>
            (IReadOnlyList<string>)((await client.Volumes.ListAsync(new VolumesListParameters { Filters = EngineFilters.Label(labelFilter) }, t)).Volumes ?? [])
                .Select(v => v.Name).ToList(), ct);

    /// <summary>Removes a volume (one already gone is no error).</summary>
    public Task RemoveAsync(string name, CancellationToken ct = default) =>
        connection.CallAsync($"remove volume {name}", async (client, t) =>
        {
            try
            {
                // Docker.DotNet 4.3.3 does not send force; the local driver removes an unused volume without it.
                await client.Volumes.RemoveAsync(name, force: true, t);
            }
            catch (EngineApiException e) when (e.StatusCode == HttpStatusCode.NotFound)
            {
            }
            return true;
        }, ct);
}
