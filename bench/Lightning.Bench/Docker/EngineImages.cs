using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>Images through the engine: whether one is present, and pulls that fail when they stop making progress.</summary>
internal sealed class EngineImages(EngineConnection connection)
{
    /// <summary>How long a pull may go without a progress message.</summary>
    public static readonly TimeSpan DefaultPullIdle = TimeSpan.FromMinutes(5);

    /// <summary>The image's id (digest of its config) and digests when it is present locally, otherwise null.</summary>
    public Task<ImageDetails?> InspectAsync(string image, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"inspect image {image}",
            async (client, t) => ImageDetails.From(await client.Images.InspectImageAsync(image, t)),
            ct
        );

    /// <summary>
    /// Pulls an image. The engine streams progress and reports failures inside that stream; the library reads it one
    /// message at a time (a pull's whole answer is never held), and a pull that goes quiet for <paramref name="idle"/> fails.
    /// </summary>
    public async Task PullAsync(string image, CancellationToken ct = default, TimeSpan? idle = null)
    {
        var reference = ImageReference.Parse(image);
        var quiet = idle ?? DefaultPullIdle;
        using var watchdog = CancellationTokenSource.CreateLinkedTokenSource(ct);
        watchdog.CancelAfter(quiet);
        try
        {
            await connection.CallAsync(
                $"pull {image}",
                async (client, t) =>
                {
                    await client.Images.CreateImageAsync(
                        new ImagesCreateParameters { FromImage = reference.Repository, Tag = reference.Tag },
                        authConfig: null,
                        new PullProgress(image, () => watchdog.CancelAfter(quiet)),
                        t
                    );
                    return true;
                },
                watchdog.Token,
                Timeout.InfiniteTimeSpan
            );
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            throw new DockerUnavailableException(
                $"pulling {image} made no progress for {quiet.TotalSeconds:0} s: check the network and the engine at {connection.Host}"
            );
        }
    }

    /// <summary>Imports a file system tar as an image (`docker import`), with Dockerfile instructions such as ENV and ENTRYPOINT.</summary>
    public Task ImportAsync(
        Stream tar,
        string repository,
        string tag,
        IReadOnlyList<string> changes,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            $"import {repository}:{tag}",
            async (client, t) =>
            {
                await client.Images.CreateImageAsync(
                    new ImagesCreateParameters
                    {
                        FromSrc = "-",
                        Repo = repository,
                        Tag = tag,
                        Changes = [.. changes],
                    },
                    tar,
                    authConfig: null,
                    new Progress<JSONMessage>(),
                    t
                );
                return true;
            },
            ct,
            Timeout.InfiniteTimeSpan
        );

    /// <summary>The repository:tag names of the images carrying a label (images without a tag are left out).</summary>
    public Task<IReadOnlyList<string>> ListTaggedAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            $"list images {labelFilter}",
            async (client, t) =>
                (IReadOnlyList<string>)
                    (
                        await client.Images.ListImagesAsync(
                            new ImagesListParameters { Filters = EngineFilters.Label(labelFilter) },
                            t
                        )
                    )
                        .SelectMany(i => i.RepoTags ?? [])
                        .Where(n => n != "<none>:<none>")
                        .ToList(),
            ct
        );

    /// <summary>The images whose names match a reference pattern, as `docker images REPOSITORY` matches them (e.g. "lnbench-built/*").</summary>
    public Task<IReadOnlyList<ImageSummary>> ListAsync(string reference, CancellationToken ct = default) =>
        connection.CallAsync(
            $"list images {reference}",
            async (client, t) =>
                (IReadOnlyList<ImageSummary>)
                    (
                        await client.Images.ListImagesAsync(
                            new ImagesListParameters { Filters = EngineFilters.Of(("reference", reference)) },
                            t
                        )
                    )
                        .Select(i => new ImageSummary(
                            [.. (i.RepoTags ?? []).Where(n => n != "<none>:<none>")],
                            i.ID,
                            i.Size,
                            new DateTimeOffset(i.Created.ToUniversalTime(), TimeSpan.Zero)
                        ))
                        .ToList(),
            ct
        );

    /// <summary>Removes an image by name; false when the engine keeps it (a container uses it) or it is gone.</summary>
    public async Task<bool> TryRemoveAsync(string name, CancellationToken ct = default)
    {
        try
        {
            await connection.CallAsync(
                $"remove image {name}",
                async (client, t) =>
                {
                    await client.Images.DeleteImageAsync(name, new ImageDeleteParameters(), t);
                    return true;
                },
                ct
            );
            return true;
        }
        catch (DockerApiException)
        {
            return false;
        }
    }
}
