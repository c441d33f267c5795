namespace Lightning.Bench.Results;

/// <summary>An image a run used: the name it was given, the engine's id, its registry digests and the versions its programs printed.</summary>
internal sealed record ImageRecord(
    string Name,
    string Id,
    IReadOnlyList<string> RepoDigests,
    IReadOnlyDictionary<string, string> Versions
)
{
    /// <summary>The node kind its builds run it as (null: bitcoind's image).</summary>
    public string? Kind { get; init; }

    /// <summary>What its node runs without (no spans, another payment call), one line each, as the run said before it started.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];

    /// <summary>The commit the harness made it from (a build given as git:REF), or null for an image given by name.</summary>
    public SourceCommit? Source { get; init; }
}
