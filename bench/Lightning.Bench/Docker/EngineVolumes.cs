using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>Volumes through the engine, found and removed by label.</summary>
internal sealed class EngineVolumes(EngineConnection connection)
{
    public Task<IReadOnlyList<string>> ListAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            "list volumes",
            async (client, t) =>
                (IReadOnlyList<string>)
                    (
                        (
                            await client.Volumes.ListAsync(
                                new VolumesListParameters { Filters = EngineFilters.Label(labelFilter) },
                                t
                            )
                        ).Volumes
                        ?? []
                    )
                        .Select(v => v.Name)
                        .ToList(),
            ct
        );

    /// <summary>The volumes with this label, with all their labels.</summary>
    public Task<IReadOnlyList<LabelledResource>> ListLabelledAsync(
        string labelFilter,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            "list volumes",
            async (client, t) =>
                (IReadOnlyList<LabelledResource>)
                    (
                        (
                            await client.Volumes.ListAsync(
                                new VolumesListParameters { Filters = EngineFilters.Label(labelFilter) },
                                t
                            )
                        ).Volumes
                        ?? []
                    )
                        .Select(v => new LabelledResource(
                            v.Name,
                            new Dictionary<string, string>(v.Labels ?? new Dictionary<string, string>())
                        ))
                        .ToList(),
            ct
        );

    /// <summary>Removes a volume (one already gone is no error).</summary>
    public Task RemoveAsync(string name, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"remove volume {name}",
            async (client, t) =>
            {
                // Docker.DotNet 4.3.3 does not send force; the local driver removes an unused volume without it.
                await client.Volumes.RemoveAsync(name, force: true, t);
                return true;
            },
            ct
        );
}
