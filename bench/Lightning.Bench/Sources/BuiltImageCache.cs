using System.Text.Json;
using Lightning.Bench.Docker;
using Lightning.Bench.Results;

namespace Lightning.Bench.Sources;

/// <summary>
/// The images the harness made from commits: in the engine, named lnbench-built/CHECKOUT:COMMIT12 (the name is the
/// cache's key), and beside them a small record per image (commit, subject, date, checkout, log) in
/// ~/.cache/lightning-bench/built/ (or under $XDG_CACHE_HOME), which --built-images shows and --prune-built removes
/// with the images. An image whose record is gone is still found by its name.
/// </summary>
internal sealed class BuiltImageCache(DockerEngine engine, string? directory = null)
{
    public string Directory { get; } = directory ?? DefaultDirectory;

    public static string DefaultDirectory =>
        Path.Combine(
            Environment.GetEnvironmentVariable("XDG_CACHE_HOME") is { Length: > 0 } cache
                ? cache
                : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache"),
            "lightning-bench",
            "built"
        );

    /// <summary>The image of that name and its id, or null when the engine has none (to be built).</summary>
    public async Task<string?> IdOfAsync(string image, CancellationToken ct = default) =>
        (await engine.InspectImageAsync(image, ct))?.Id;

    /// <summary>The record of an image made earlier, or null.</summary>
    public SourceCommit? Find(string image)
    {
        var file = RecordFile(image);
        try
        {
            return File.Exists(file)
                ? JsonSerializer.Deserialize<SourceCommit>(File.ReadAllText(file), RunSummary.Json)
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public void Record(SourceCommit made)
    {
        System.IO.Directory.CreateDirectory(Directory);
        File.WriteAllText(
            RecordFile(made.Image),
            JsonSerializer.Serialize(made with { Built = true }, RunSummary.Json)
        );
    }

    /// <summary>Every image made from a commit (of one checkout when <paramref name="checkoutName"/> is given), with its record if there is one.</summary>
    public async Task<IReadOnlyList<(ImageSummary Image, SourceCommit? Source)>> ListAsync(
        string? checkoutName = null,
        CancellationToken ct = default
    )
    {
        var images = await engine.ListImagesAsync(
            checkoutName is null ? BuiltImageName.Pattern : BuiltImageName.PatternFor(checkoutName),
            ct
        );
        return images
            .SelectMany(i =>
                i.Names.Where(BuiltImageName.IsBuilt)
                    .Select(name => (Image: i with { Names = [name] }, Source: Find(name)))
            )
            .OrderBy(e => e.Image.Names[0], StringComparer.Ordinal)
            .ToList();
    }

    /// <summary>Removes the images made from commits (of one checkout) and their records; returns how many went, their size, and those the engine kept (in use).</summary>
    public async Task<(int Removed, long Bytes, IReadOnlyList<string> Kept)> PruneAsync(
        string? checkoutName = null,
        CancellationToken ct = default
    )
    {
        var (removed, bytes, kept) = (0, 0L, new List<string>());
        foreach (var (image, _) in await ListAsync(checkoutName, ct))
        {
            var name = image.Names[0];
            if (await engine.TryRemoveImageAsync(name, ct))
            {
                removed++;
                bytes += image.SizeBytes;
                File.Delete(RecordFile(name));
            }
            else
            {
                kept.Add(name);
            }
        }
        return (removed, bytes, kept);
    }

    private string RecordFile(string image) =>
        Path.Combine(Directory, image.Replace('/', '_').Replace(':', '_') + ".json");
}
