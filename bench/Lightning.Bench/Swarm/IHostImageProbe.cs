using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The seam of the image check beyond the manager's own host: which hosts lack an image under the id the manager holds
/// it by. A host's images are its own engine's, which the manager's API does not list; <see cref="ImageJobProbe"/>
/// asks each host through the swarm itself.
/// </summary>
internal interface IHostImageProbe
{
    /// <summary>The (host, image) pairs where the host has no image with that id.</summary>
    Task<IReadOnlyList<(SwarmNode Host, string Image)>> MissingAsync(
        IReadOnlyList<SwarmNode> hosts,
        IReadOnlyDictionary<string, string> imageIds,
        CancellationToken ct = default
    );
}
