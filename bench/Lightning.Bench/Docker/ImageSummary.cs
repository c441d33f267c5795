namespace Lightning.Bench.Docker;

/// <summary>A local image as the engine lists it: its repository:tag names, id, size and when it was made.</summary>
internal sealed record ImageSummary(IReadOnlyList<string> Names, string Id, long SizeBytes, DateTimeOffset Created);
