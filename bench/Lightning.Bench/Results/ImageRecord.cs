namespace Lightning.Bench.Results;

/// <summary>An image a run used: the name it was given, the engine's id, its registry digests and the versions its programs printed.</summary>
internal sealed record ImageRecord(string Name, string Id, IReadOnlyList<string> RepoDigests, IReadOnlyDictionary<string, string> Versions);
