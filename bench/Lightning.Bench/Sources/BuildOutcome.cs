namespace Lightning.Bench.Sources;

/// <summary>What became of one commit's build: made (the image's id), or why not, with the image command's last lines.</summary>
internal sealed record BuildOutcome(
    BuildResult Result,
    string Image,
    string Log,
    string? ImageId = null,
    int? ExitCode = null,
    string Tail = ""
)
{
    public bool Made => Result == BuildResult.Built;

    /// <summary>One line that says what happened and where the log is.</summary>
    public string Describe(string from) =>
        Result switch
        {
            BuildResult.Built => $"made {Image} (image {ImageId?[..Math.Min(19, ImageId.Length)]})",
            BuildResult.CannotBuild =>
                $"the image command ({from}) says this commit cannot be built (exit {ImageCommand.CannotBuild}){TailText}; its log: {Log}",
            BuildResult.NoImage =>
                $"the image command ({from}) exited 0 but left no image {Image} in the engine: it must tag what it builds as {{image}}{TailText}; its log: {Log}",
            _ => $"the image command ({from}) failed (exit {ExitCode}){TailText}; its log: {Log}",
        };

    private string TailText => Tail.Length > 0 ? $": {Tail}" : "";
}

internal enum BuildResult
{
    /// <summary>Exit 0 and the image in the engine.</summary>
    Built,

    /// <summary>Exit 125: the command says this commit cannot be built.</summary>
    CannotBuild,

    /// <summary>Any other exit (or the command's time ran out).</summary>
    Failed,

    /// <summary>Exit 0 but no image of the name it was given.</summary>
    NoImage,
}
