namespace Lightning.Bench.Results;

public sealed record BuildRecord(string Name, string Image, IReadOnlyDictionary<string, string> NodeImages);
