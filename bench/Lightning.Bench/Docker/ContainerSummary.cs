using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>What the harness reads of a container in a list.</summary>
internal sealed record ContainerSummary(
    string Id,
    string Name,
    string State,
    IReadOnlyDictionary<string, string> Labels
)
{
    public static ContainerSummary From(ContainerListResponse container) =>
        new(
            container.ID,
            container.Names?.Select(n => n.TrimStart('/')).FirstOrDefault() ?? "",
            container.State ?? "",
            new Dictionary<string, string>(container.Labels ?? new Dictionary<string, string>())
        );
}
