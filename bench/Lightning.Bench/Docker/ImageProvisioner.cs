using Lightning.Bench.Progress;

namespace Lightning.Bench.Docker;

/// <summary>Makes sure each image is present (pulling it if needed) and has the programs the harness starts.</summary>
internal sealed class ImageProvisioner(
    DockerEngine engine,
    RunProgress progress,
    IReadOnlyDictionary<string, string> labels
)
{
    /// <summary>Checks one image; returns its details and the first line each program printed for its version.</summary>
    /// <param name="programs">Program → its version flag, e.g. lightningd → --version.</param>
    public async Task<(ImageDetails Details, IReadOnlyDictionary<string, string> Versions)> EnsureAsync(
        string image,
        string option,
        IReadOnlyDictionary<string, string> programs,
        bool pull,
        CancellationToken ct = default
    )
    {
        var details = await EnsurePresentAsync(image, option, pull, ct);
        var versions = new Dictionary<string, string>();
        foreach (var (program, versionFlag) in programs)
        {
            var (exitCode, output) = await engine.RunToCompletionAsync(
                image,
                [program],
                [versionFlag],
                labels,
                TimeSpan.FromSeconds(60),
                ct
            );
            if (exitCode != 0)
            {
                throw new ImageUnavailableException(
                    $"image '{image}' cannot run '{program} {versionFlag}' (exit {exitCode}: {output.Trim().Split('\n').LastOrDefault()}): it needs {string.Join(" and ", programs.Keys)} on PATH; choose another with {option}"
                );
            }
            versions[program] = output.Trim().Split('\n').FirstOrDefault()?.Trim() ?? "";
        }
        return (details, versions);
    }

    /// <summary>Whether <paramref name="program"/> runs in the image and answers <paramref name="versionFlag"/> (exit 0).</summary>
    public async Task<bool> RunsAsync(
        string image,
        string program,
        string versionFlag,
        CancellationToken ct = default
    ) =>
        (
            await engine.RunToCompletionAsync(image, [program], [versionFlag], labels, TimeSpan.FromSeconds(60), ct)
        ).ExitCode == 0;

    /// <summary>The image present locally, pulled if it is not and pulling is allowed; its details.</summary>
    public async Task<ImageDetails> EnsurePresentAsync(
        string image,
        string option,
        bool pull,
        CancellationToken ct = default
    )
    {
        if (await engine.InspectImageAsync(image, ct) is { } present)
        {
            return present;
        }
        if (!pull)
        {
            throw new ImageUnavailableException(
                $"image '{image}' is not present locally and --no-pull was given: build or pull it, or choose another with {option}"
            );
        }
        progress.Info($"pulling {image}...");
        var clock = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            await engine.PullImageAsync(image, ct);
            progress.Info($"pulled {image} in {clock.Elapsed.TotalSeconds:0.0} s");
        }
        catch (DockerApiException e)
        {
            throw new ImageUnavailableException(
                $"image '{image}' is not present locally and pulling it failed ({e.Message.Trim()}): pull or build it yourself, or choose another with {option}"
            );
        }
        return await engine.InspectImageAsync(image, ct)
            ?? throw new ImageUnavailableException(
                $"image '{image}' is not present after it was pulled: pull it yourself, or choose another with {option}"
            );
    }
}
