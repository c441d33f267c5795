using System.Text.Json;

namespace Lightning.Bench.Docker;

internal static class DockerJson
{
    public static IReadOnlyDictionary<string, string> Labels(JsonElement labels) =>
        labels.ValueKind == JsonValueKind.Object
            ? labels.EnumerateObject().ToDictionary(l => l.Name, l => l.Value.GetString() ?? "")
            : new Dictionary<string, string>();
}
