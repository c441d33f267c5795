using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// Before anything is deployed: every host that may run a topology has each image with the id the manager holds it
/// by, so every arm runs the same bits wherever it lands. The manager's own host is read through its engine; the others
/// through <see cref="IHostImageProbe"/>. The ids are what the stacks are deployed with (<see cref="StackServices"/>
/// pins a service to its image's id: no host asks a registry).
/// </summary>
internal static class SwarmImageCheck
{
    /// <summary>Image → id, on every host; else one line naming each host and the image it lacks.</summary>
    /// <param name="probe">Asks the hosts other than the manager's; none is needed on a single-node swarm.</param>
    public static async Task<IReadOnlyDictionary<string, string>> RequireSameAsync(
        DockerEngine engine,
        SwarmManager manager,
        IReadOnlyList<string> images,
        IHostImageProbe? probe = null,
        CancellationToken ct = default
    )
    {
        var ids = new Dictionary<string, string>();
        var problems = new List<string>();
        foreach (var image in images.Distinct())
        {
            if ((await engine.InspectImageAsync(image, ct))?.Id is { } id)
            {
                ids[image] = id;
            }
            else
            {
                problems.Add($"host {manager.Node.Hostname} lacks image {image}");
            }
        }
        var others = manager.Hosts.Where(h => h.Id != manager.Node.Id).ToList();
        if (problems.Count == 0 && others.Count > 0)
        {
            if (probe is null)
            {
                throw new SwarmUnavailableException(
                    $"cannot check the images on host(s) {string.Join(", ", others.Select(h => h.Hostname))}: no probe of other hosts was given"
                );
            }
            problems.AddRange(
                (await probe.MissingAsync(others, ids, ct)).Select(m =>
                    $"host {m.Host.Hostname} lacks image {m.Image} as {Short(ids[m.Image])} (the manager's)"
                )
            );
        }
        if (problems.Count > 0)
        {
            throw new SwarmUnavailableException(
                $"{string.Join("; ", problems)}: load the same image on every host ('docker save IMAGE | ssh HOST docker load') or push it to a registry they all pull from"
            );
        }
        return ids;
    }

    public static string Short(string id) =>
        id.StartsWith("sha256:", StringComparison.Ordinal) && id.Length > 19 ? id[7..19] : id;
}
