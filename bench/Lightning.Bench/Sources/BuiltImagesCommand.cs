using System.Globalization;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Sources;

/// <summary>--built-images and --prune-built: the cache of images made from commits, listed or emptied (of one checkout with --source).</summary>
internal static class BuiltImagesCommand
{
    public static int Run(HarnessOptions options, TextWriter output)
    {
        try
        {
            return RunAsync(options, output).GetAwaiter().GetResult();
        }
        catch (UsageException e)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e)
            when (e is DockerUnavailableException or DockerApiException or IOException or SourceUnavailableException)
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
    }

    private static async Task<int> RunAsync(HarnessOptions options, TextWriter output)
    {
        var checkout = options.SourceDirectory is { } source ? await GitCheckout.OpenAsync(source) : null;
        using var engine = new DockerEngine(DockerEndpoint.Resolve());
        var cache = new BuiltImageCache(engine);
        var whose = checkout is null ? "" : $" from {checkout.Path}";
        if (options.PruneBuilt)
        {
            var (removed, bytes, kept) = await cache.PruneAsync(checkout?.Name);
            output.WriteLine(
                Invariant(
                    $"built images{whose}: removed {removed} ({bytes / 1e6:0.#} MB as the engine sizes them, shared layers counted in each)"
                ) + (kept.Count > 0 ? $"; kept {kept.Count} a container still uses: {string.Join(", ", kept)}" : "")
            );
            return 0;
        }
        var images = await cache.ListAsync(checkout?.Name);
        output.WriteLine(
            $"{images.Count} image(s) made from source refs{whose} (in the engine as {BuiltImageName.Pattern}; records in {cache.Directory}):"
        );
        foreach (var (image, made) in images)
        {
            output.WriteLine(
                Invariant($"  {image.Names[0]}  {image.SizeBytes / 1e6:0} MB  made {image.Created:yyyy-MM-dd HH:mm}")
                    + (
                        made is null
                            ? "  (no record)"
                            : $"  {made.Commit} \"{made.Subject}\" ({made.AuthorDate:yyyy-MM-dd}) of {made.Repository}"
                    )
            );
        }
        return 0;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
