namespace Lightning.Bench.Options;

/// <summary>
/// bisect GOOD BAD: the two refs of the --source checkout a metric stepped between. Every step of the bisection is a
/// comparison of two builds made from source, <see cref="GoodBuild"/> (GOOD's commit) and <see cref="CandidateBuild"/>.
/// </summary>
internal sealed record BisectRefs(string Good, string Bad)
{
    public const string Command = "bisect";

    /// <summary>The build of GOOD's commit, every step's baseline.</summary>
    public const string GoodBuild = "good";

    /// <summary>The build of the commit a step measures.</summary>
    public const string CandidateBuild = "candidate";

    /// <summary>Options only a bisection takes: a step's harness is given the rest.</summary>
    public static IReadOnlyList<string> OwnOptions { get; } = ["--metric", "--case", "--resume"];
}
