namespace Lightning.Bench.Sources;

/// <summary>A commit of the --source checkout as git tells it: its hash, parents, subject, author and author date.</summary>
internal sealed record CommitInfo(
    string Hash,
    IReadOnlyList<string> Parents,
    string Subject,
    string Author,
    DateTimeOffset AuthorDate
)
{
    /// <summary>The first 12 hex digits, as images and lines name it.</summary>
    public string Short => Hash.Length > 12 ? Hash[..12] : Hash;

    public bool IsMerge => Parents.Count > 1;
}
