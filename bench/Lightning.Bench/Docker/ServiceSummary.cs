namespace Lightning.Bench.Docker;

/// <summary>A swarm service as the harness reads it in a list: id, name and the service's own labels.</summary>
internal sealed record ServiceSummary(string Id, string Name, IReadOnlyDictionary<string, string> Labels);
