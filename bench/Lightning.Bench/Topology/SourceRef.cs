namespace Lightning.Bench.Topology;

/// <summary>
/// A build's image given as a commit of the --source checkout (git:REF: a tag, branch or commit) instead of an image
/// reference: the harness makes it into an image before the run. "git:" always means a ref, so an image that Docker
/// would call git:TAG is given by its full name (docker.io/library/git:TAG).
/// </summary>
internal static class SourceRef
{
    public const string Prefix = "git:";

    public static bool Is(string image) => image.StartsWith(Prefix, StringComparison.Ordinal);

    /// <summary>The ref of git:REF.</summary>
    public static string Of(string image) =>
        Is(image) ? image[Prefix.Length..] : throw new ArgumentException($"{image} is not {Prefix}REF", nameof(image));
}
