using Lightning.Bench.Processes;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Sources;

/// <summary>
/// The user's command that makes a commit into an image: --image-command, or else the file
/// <see cref="FileName"/> at the top of the --source checkout. The harness holds no recipe for building any
/// implementation; it runs this command by /bin/sh -c in a clean tree of the commit, with {commit}, {source} and
/// {image} put in shell-quoted and the same given as LNBENCH_COMMIT, LNBENCH_SOURCE and LNBENCH_IMAGE. Its contract:
/// exit 0 with the image {image} in the engine (built); exit <see cref="CannotBuild"/> (this commit cannot be built,
/// as git bisect run's 125); any other exit a failed build; exit 0 without the image an error.
/// </summary>
/// <param name="From">Where the command came from, for the lines that name it ("--image-command", or the file's path).</param>
internal sealed record ImageCommand(string Text, string From)
{
    public const string FileName = ".lnbench-image-command";

    /// <summary>The exit code by which the command says "this commit cannot be built" (a bisection skips it).</summary>
    public const int CannotBuild = 125;

    /// <summary>How long a build may take before it is stopped and counted as failed.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromHours(4);

    public const string CommitVariable = "LNBENCH_COMMIT";
    public const string SourceVariable = "LNBENCH_SOURCE";
    public const string ImageVariable = "LNBENCH_IMAGE";
    public const string RefVariable = "LNBENCH_REF";

    /// <summary>--image-command when given, else the checkout's file; one line when there is neither.</summary>
    public static ImageCommand Of(string? option, string checkout)
    {
        if (option is not null)
        {
            return new ImageCommand(option, "--image-command");
        }
        var file = Path.Combine(checkout, FileName);
        if (!File.Exists(file))
        {
            throw new UsageException(
                $"no image command: give --image-command '…' (e.g. 'docker build -t {{image}} {{source}}'), or put it in {file}"
            );
        }
        var text = File.ReadAllText(file).Trim();
        return text.Length > 0
            ? new ImageCommand(text, file)
            : throw new UsageException(
                $"{file} is empty: write the command that makes a commit into an image in it, or give --image-command"
            );
    }

    /// <summary>The command with its placeholders put in, each shell-quoted (so a path with spaces or quotes stays one word).</summary>
    public string For(string commit, string source, string image) =>
        Text.Replace("{commit}", Quote(commit), StringComparison.Ordinal)
            .Replace("{source}", Quote(source), StringComparison.Ordinal)
            .Replace("{image}", Quote(image), StringComparison.Ordinal);

    /// <summary>
    /// Runs the command in <paramref name="source"/> (the commit's clean tree), its standard output and error together,
    /// line by line, into <paramref name="log"/> and to <paramref name="line"/>; returns its exit code.
    /// </summary>
    public async Task<int> RunAsync(
        string commit,
        string source,
        string image,
        string reference,
        TextWriter log,
        Action<string> line,
        CancellationToken ct = default
    )
    {
        var environment = new Dictionary<string, string?>
        {
            [CommitVariable] = commit,
            [SourceVariable] = source,
            [ImageVariable] = image,
            [RefVariable] = reference,
        };
        // One stream: the log keeps the command's words in the order it said them.
        var result = await ProcessRunner.RunAsync(
            "/bin/sh",
            ["-c", "exec 2>&1\n" + For(commit, source, image)],
            Timeout,
            reader =>
            {
                while (reader.ReadLine() is { } text)
                {
                    log.WriteLine(text);
                    line(text);
                }
            },
            environment,
            source,
            ct
        );
        return result.ExitCode;
    }

    /// <summary>A word for /bin/sh: in single quotes, each single quote closed, escaped and opened again.</summary>
    internal static string Quote(string word) => "'" + word.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
