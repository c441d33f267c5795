using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>A local image's id (the digest of its config) and its repository digests (none for an image built here).</summary>
internal sealed record ImageDetails(string Id, IReadOnlyList<string> RepoDigests)
{
    public static ImageDetails From(ImageInspectResponse image) => new(image.ID, [.. image.RepoDigests ?? []]);
}
