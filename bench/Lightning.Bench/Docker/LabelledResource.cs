namespace Lightning.Bench.Docker;

/// <summary>A network or volume with its labels: what a sweep reads to judge whose it is.</summary>
internal sealed record LabelledResource(string Id, IReadOnlyDictionary<string, string> Labels);
