namespace Lightning.Bench.Artifacts;

public sealed record BuildRecord(string Name, string Image, IReadOnlyDictionary<string, string> NodeImages);
