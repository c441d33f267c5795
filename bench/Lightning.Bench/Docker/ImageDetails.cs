using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>A local image's id (the digest of its config) and its repository digests (none for an image built here).</summary>
internal sealed record ImageDetails(string Id, IReadOnlyList<string> RepoDigests)
{
    /// <summary>Its entrypoint and default command, word by word (what it runs when told nothing).</summary>
    public IReadOnlyList<string> Command { get; init; } = [];

    public static ImageDetails From(ImageInspectResponse image) =>
        new(image.ID, [.. image.RepoDigests ?? []])
        {
            Command = [.. image.Config?.Entrypoint ?? [], .. image.Config?.Cmd ?? []],
        };
}
