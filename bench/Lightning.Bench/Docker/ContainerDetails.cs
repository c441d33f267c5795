using System.Text.Json;

namespace Lightning.Bench.Docker;

internal sealed record ContainerDetails(
    string Id,
    string Name,
    bool Running,
    long ExitCode,
    string Status,
    IReadOnlyDictionary<string, string> Labels,
    IReadOnlyDictionary<string, int> HostPorts,
    int Pid = 0)
{
    public static ContainerDetails FromJson(JsonElement json)
    {
        var state = json.GetProperty("State");
        var ports = new Dictionary<string, int>();
        if (json.GetProperty("NetworkSettings").TryGetProperty("Ports", out var portMap) && portMap.ValueKind == JsonValueKind.Object)
        {
            foreach (var port in portMap.EnumerateObject())
            {
                if (port.Value.ValueKind == JsonValueKind.Array && port.Value.GetArrayLength() > 0)
                {
                    ports[port.Name] = int.Parse(port.Value[0].GetProperty("HostPort").GetString()!);
                }
            }
        }
        return new ContainerDetails(
            json.GetProperty("Id").GetString()!,
            json.GetProperty("Name").GetString()!.TrimStart('/'),
            state.GetProperty("Running").GetBoolean(),
            state.GetProperty("ExitCode").GetInt64(),
            state.GetProperty("Status").GetString() ?? "",
            DockerJson.Labels(json.GetProperty("Config").GetProperty("Labels")),
            ports,
            state.TryGetProperty("Pid", out var pid) && pid.ValueKind == JsonValueKind.Number ? pid.GetInt32() : 0);
    }
}
