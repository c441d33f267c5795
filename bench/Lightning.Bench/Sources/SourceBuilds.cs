using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Sources;

/// <summary>
/// Builds given as git:REF made into images before the run proper: every ref resolved in --source to its commit, each
/// commit's image (<see cref="BuiltImageName"/>) made by the image command unless the engine has it already, then the
/// run sees ordinary image builds, with a record of each one's commit (<see cref="HarnessOptions.Sources"/>) for the
/// manifest, the page and the history. Bad input gets one line and exit 2 before any topology: a --source that is not a
/// checkout, a ref that names no commit, an image command that fails (its log's last lines) or leaves no image.
/// </summary>
internal static class SourceBuilds
{
    /// <summary>
    /// The options with every git:REF image made and put in its place; <paramref name="exitCode"/> is set (and the
    /// line said) when the run must stop: 2 bad input, 1 the engine or git failed, 130 stopped by Ctrl+C or SIGTERM.
    /// </summary>
    public static HarnessOptions Prepare(HarnessOptions options, out int? exitCode)
    {
        exitCode = null;
        if (!options.Builds.SelectMany(b => b.Images).Any(i => SourceRef.Is(i.Image)))
        {
            return options;
        }
        using var stop = new StopSignals();
        try
        {
            return PrepareAsync(options, RunProgress.Console, stop.Token).GetAwaiter().GetResult();
        }
        catch (UsageException e)
        {
            exitCode = HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e)
            when (e
                    is SourceUnavailableException
                        or DockerUnavailableException
                        or DockerApiException
                        or IOException
                        or UnauthorizedAccessException
            )
        {
            exitCode = HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
        catch (OperationCanceledException) when (stop.Token.IsCancellationRequested)
        {
            exitCode = HarnessExit.Fail(
                HarnessExit.Interrupted,
                "stopped while making images from source refs (nothing of the unfinished build is left but its log)"
            );
        }
        return options;
    }

    public static async Task<HarnessOptions> PrepareAsync(
        HarnessOptions options,
        RunProgress progress,
        CancellationToken ct = default
    )
    {
        var refs = options
            .Builds.SelectMany(b => b.Images)
            .Select(i => i.Image)
            .Where(SourceRef.Is)
            .Distinct()
            .ToList();
        if (refs.Count == 0)
        {
            return options;
        }
        var checkout = await GitCheckout.OpenAsync(
            options.SourceDirectory ?? throw new UsageException("a build given as git:REF needs --source DIR"),
            ct
        );
        // Every ref resolved before anything is built: a typo costs no build.
        var commits = new List<(string Image, CommitInfo Commit)>();
        foreach (var image in refs)
        {
            var reference = SourceRef.Of(image);
            var hash =
                await checkout.ResolveAsync(reference, ct)
                ?? throw new UsageException(
                    $"{image}: '{reference}' names no commit in {checkout.Path} (git rev-parse {reference}^{{commit}} found none): give a tag, branch or commit of that checkout (git fetch it first if it is new)"
                );
            commits.Add((image, await checkout.CommitAsync(hash, ct)));
        }
        using var engine = new DockerEngine(DockerEndpoint.Resolve());
        var images = new SourceImages(
            checkout,
            options.ImageCommand,
            engine,
            Path.Combine(options.ResultsRoot, LogFolder),
            progress
        );
        var records = new List<SourceCommit>();
        foreach (var (image, commit) in commits)
        {
            var reference = SourceRef.Of(image);
            if (records.FirstOrDefault(r => r.Commit == commit.Hash) is { } twin)
            {
                records.Add(twin with { Ref = reference });
                continue;
            }
            var (made, failed) = await images.EnsureAsync(commit, reference, ct);
            records.Add(
                made
                    ?? throw new UsageException(
                        $"{image} ({commit.Short} \"{commit.Subject}\"): {failed!.Describe(images.Command.From)}"
                    )
            );
        }
        if (records.All(r => !r.Built))
        {
            progress.Info(
                $"built nothing: {string.Join(", ", records.Select(r => $"git:{r.Ref} is {r.Image}"))}, made earlier ({ListOption} lists them)"
            );
        }
        return WithImages(options, records);
    }

    /// <summary>Where the image command's logs go, under --results (each run keeps a copy of its builds' logs in its own folder).</summary>
    public const string LogFolder = "builds";

    public const string ListOption = "./run.sh --built-images";

    /// <summary>The options with each git:REF image replaced by the image made from its commit, and the records of those commits.</summary>
    internal static HarnessOptions WithImages(HarnessOptions options, IReadOnlyList<SourceCommit> records)
    {
        string Image(string image) =>
            SourceRef.Is(image) ? records.First(r => r.Ref == SourceRef.Of(image)).Image : image;
        return options with
        {
            ClnImage = Image(options.ClnImage),
            BuildList = options
                .BuildList.Select(b =>
                    b with
                    {
                        Image = Image(b.Image),
                        NodeImages = b.NodeImages.ToDictionary(n => n.Key, n => Image(n.Value)),
                    }
                )
                .ToList(),
            Sources = records,
        };
    }
}
