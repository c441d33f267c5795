using Lightning.Bench.Docker;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Sources;

/// <summary>
/// Makes one commit into an image with the user's <see cref="ImageCommand"/>: a clean tree of the commit (a worktree
/// under the temporary folder), the command run in it with its output in a log, the image checked in the engine, then
/// the tree removed. A build that fails leaves nothing but its log: no tree, no worktree in git's list, no image of the
/// name it was given.
/// </summary>
internal sealed class ImageBuilder(
    GitCheckout checkout,
    ImageCommand command,
    DockerEngine engine,
    string logDirectory,
    RunProgress progress
)
{
    /// <summary>How often a build says it is still going, with the command's last line.</summary>
    public static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(30);

    public GitCheckout Checkout => checkout;

    public ImageCommand Command => command;

    /// <summary>Where a commit's build log goes (the last attempt's).</summary>
    public string LogOf(CommitInfo commit) =>
        Path.Combine(Path.GetFullPath(logDirectory), $"{checkout.Name}-{commit.Short}.log");

    public async Task<BuildOutcome> BuildAsync(
        CommitInfo commit,
        string reference,
        string image,
        CancellationToken ct = default
    )
    {
        var log = LogOf(commit);
        Directory.CreateDirectory(Path.GetDirectoryName(log)!);
        var tree = Path.Combine(
            Path.GetTempPath(),
            $"lnbench-src-{checkout.Name}-{commit.Short}-{Guid.NewGuid().ToString("N")[..6]}"
        );
        var started = DateTimeOffset.UtcNow;
        var last = "";
        progress.Info(
            $"building {image} from {commit.Short} \"{commit.Subject}\" ({reference}) with the image command; its output: {log}"
        );
        int exitCode;
        await using (var writer = new StreamWriter(log, append: false) { AutoFlush = true })
        {
            writer.WriteLine(
                $"# lnbench: {image} from {commit.Hash} ({commit.Subject}), ref {reference}, by {command.From}:"
            );
            foreach (var line in command.Text.Split('\n'))
            {
                writer.WriteLine($"# lnbench:   {line}");
            }
            using var ticker = new Timer(
                _ =>
                    progress.Info(
                        $"building {image}: {Took(DateTimeOffset.UtcNow - started)} so far{(last.Length > 0 ? $"; last line: {Cut(last)}" : "")}"
                    ),
                null,
                ProgressEvery,
                ProgressEvery
            );
            try
            {
                await checkout.AddWorktreeAsync(commit.Hash, tree, ct);
                exitCode = await command.RunAsync(commit.Hash, tree, image, reference, writer, line => last = line, ct);
            }
            catch (TimeoutException e)
            {
                writer.WriteLine($"# lnbench: {e.Message}");
                exitCode = -1;
            }
            catch (OperationCanceledException)
            {
                writer.WriteLine("# lnbench: stopped (Ctrl+C or SIGTERM)");
                await RemoveAsync(image);
                throw;
            }
            finally
            {
                await checkout.RemoveWorktreeAsync(tree);
            }
            writer.WriteLine(
                $"# lnbench: exit {exitCode} after {(DateTimeOffset.UtcNow - started).TotalSeconds:0.0} s"
            );
        }
        var details = await engine.InspectImageAsync(image, CancellationToken.None);
        if (exitCode == 0 && details is not null)
        {
            progress.Info(
                $"built {image} in {Took(DateTimeOffset.UtcNow - started)} (image {details.Id[..Math.Min(19, details.Id.Length)]})"
            );
            return new BuildOutcome(BuildResult.Built, image, log, details.Id, 0);
        }
        // Nothing of a failed build stays but its log.
        if (details is not null)
        {
            await RemoveAsync(image);
        }
        var tail = Tail(log);
        return exitCode switch
        {
            0 => new BuildOutcome(BuildResult.NoImage, image, log, null, 0, tail),
            ImageCommand.CannotBuild => new BuildOutcome(BuildResult.CannotBuild, image, log, null, exitCode, tail),
            _ => new BuildOutcome(BuildResult.Failed, image, log, null, exitCode, tail),
        };
    }

    private async Task RemoveAsync(string image)
    {
        try
        {
            await engine.TryRemoveImageAsync(image, CancellationToken.None);
        }
        catch (DockerUnavailableException)
        {
            // The engine went away: the image, if any, is named after the commit and is found by --built-images.
        }
    }

    /// <summary>The log's last lines the command wrote (not the harness's own), joined into one.</summary>
    internal static string Tail(string log, int lines = 3) =>
        string.Join(
            " | ",
            File.ReadLines(log)
                .Where(l => l.Trim().Length > 0 && !l.StartsWith("# lnbench:", StringComparison.Ordinal))
                .TakeLast(lines)
                .Select(l => Cut(l.Trim()))
        );

    private static string Took(TimeSpan time) =>
        time.TotalSeconds < 90 ? $"{time.TotalSeconds:0.0} s" : $"{time.TotalMinutes:0.0} min";

    private static string Cut(string line) => line.Length > 160 ? line[..157] + "..." : line;
}
