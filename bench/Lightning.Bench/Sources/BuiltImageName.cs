namespace Lightning.Bench.Sources;

/// <summary>
/// How the harness names an image it made from a commit: lnbench-built/CHECKOUT:COMMIT12. The name is the cache's
/// key (an image of that name is not made again) and what --built-images and --prune-built find.
/// </summary>
internal static class BuiltImageName
{
    public const string Repository = "lnbench-built";

    /// <summary>Every image the harness made, as the engine's reference filter matches them.</summary>
    public const string Pattern = Repository + "/*";

    public static string For(string checkoutName, string commit) =>
        $"{Repository}/{checkoutName}:{commit[..Math.Min(12, commit.Length)]}";

    /// <summary>The images made from one checkout.</summary>
    public static string PatternFor(string checkoutName) => $"{Repository}/{checkoutName}";

    public static bool IsBuilt(string image) => image.StartsWith(Repository + "/", StringComparison.Ordinal);
}
