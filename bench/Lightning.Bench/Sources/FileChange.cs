namespace Lightning.Bench.Sources;

/// <summary>A file a commit touched (against its first parent): its path and the lines added and deleted (null for a binary file).</summary>
internal sealed record FileChange(string Path, int? Added, int? Deleted);
