using System.Text.Json;

namespace Lightning.Bench.Docker;

internal sealed record ContainerSummary(string Id, string Name, string State, IReadOnlyDictionary<string, string> Labels)
{
    public static ContainerSummary FromJson(JsonElement json) => new(
        json.GetProperty("Id").GetString()!,
        json.GetProperty("Names").EnumerateArray().Select(n => n.GetString()!.TrimStart('/')).FirstOrDefault() ?? "",
        json.GetProperty("State").GetString() ?? "",
        DockerJson.Labels(json.GetProperty("Labels")));
}
