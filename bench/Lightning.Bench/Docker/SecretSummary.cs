namespace Lightning.Bench.Docker;

/// <summary>A swarm secret as the manager lists it (its value is never readable back): id, name, labels.</summary>
internal sealed record SecretSummary(string Id, string Name, IReadOnlyDictionary<string, string> Labels);
