namespace Lightning.Bench.Results;

/// <summary>
/// An image the harness made from a commit of the --source checkout (a build given as git:REF): the ref as given, the
/// commit it resolved to, its subject and author date, the image named after it and that image's id.
/// </summary>
/// <param name="Repository">The checkout the commit came from (--source, as a full path).</param>
/// <param name="Built">Made by this run's image command; false when the image was already there (the cache).</param>
/// <param name="Log">Where the image command's output was kept when it was made (null when that is not known).</param>
internal sealed record SourceCommit(
    string Ref,
    string Commit,
    string Subject,
    DateTimeOffset AuthorDate,
    string Image,
    string ImageId,
    string Repository,
    bool Built,
    string? Log
)
{
    /// <summary>The commit's first 12 hex digits, as images and labels name it.</summary>
    public string Short => Commit.Length > 12 ? Commit[..12] : Commit;

    /// <summary>"abc123def456 subject", how a page or a chart names the build.</summary>
    public string Label => $"{Short} {Subject}";
}
