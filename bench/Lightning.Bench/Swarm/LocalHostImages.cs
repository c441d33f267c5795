using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>The manager's own host: its images through the engine the harness already talks to.</summary>
internal sealed class LocalHostImages(DockerEngine engine, SwarmNode self) : IHostImages
{
    public bool Reaches(SwarmNode host) => host.Id == self.Id;

    public async Task<IReadOnlyDictionary<string, string?>> IdsAsync(SwarmNode host, IReadOnlyList<string> images, CancellationToken ct = default)
    {
        var ids = new Dictionary<string, string?>();
        foreach (var image in images.Distinct())
        {
            ids[image] = (await engine.InspectImageAsync(image, ct))?.Id;
        }
        return ids;
    }
}
