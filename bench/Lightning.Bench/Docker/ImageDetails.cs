using System.Text.Json;

namespace Lightning.Bench.Docker;

internal sealed record ImageDetails(string Id, IReadOnlyList<string> RepoDigests)
{
    public static ImageDetails FromJson(JsonElement json) => new(
        json.GetProperty("Id").GetString()!,
        json.TryGetProperty("RepoDigests", out var digests) && digests.ValueKind == JsonValueKind.Array
            ? digests.EnumerateArray().Select(d => d.GetString()!).ToList()
            : []);
}
