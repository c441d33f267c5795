using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The seam of the image check: which id each image has on one host of the swarm. A host's images are its own engine's,
/// which the manager's API does not list: <see cref="LocalHostImages"/> answers for the manager's own host; another
/// host needs something that runs there (see docs/swarm.md: the agent, once it runs on every host).
/// </summary>
internal interface IHostImages
{
    /// <summary>Whether this can answer for <paramref name="host"/>.</summary>
    bool Reaches(SwarmNode host);

    /// <summary>Image → its id on <paramref name="host"/>, or null when the host lacks it.</summary>
    Task<IReadOnlyDictionary<string, string?>> IdsAsync(SwarmNode host, IReadOnlyList<string> images, CancellationToken ct = default);
}
