using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// Before anything is deployed: every host that may run a topology has each image, with the same id as the first
/// host, so every arm runs the same bits wherever it lands. The ids found are what the stacks are deployed with
/// (<see cref="StackServices"/> pins a service to its image's id: no host asks a registry).
/// </summary>
internal static class SwarmImageCheck
{
    /// <summary>Image → id, the same on every host; else one line naming each host and the image it lacks or holds otherwise.</summary>
    public static async Task<IReadOnlyDictionary<string, string>> RequireSameAsync(IReadOnlyList<SwarmNode> hosts, IReadOnlyList<string> images,
        IReadOnlyList<IHostImages> sources, CancellationToken ct = default)
    {
        var unreachable = hosts.Where(h => !sources.Any(s => s.Reaches(h))).ToList();
        if (unreachable.Count > 0)
        {
            throw new SwarmUnavailableException(
                $"cannot check the images on host(s) {string.Join(", ", unreachable.Select(h => h.Hostname))}: only the manager's own host is checked yet (run on a single-node swarm, or drain the others with 'docker node update --availability drain HOST')");
        }
        var wanted = images.Distinct().ToList();
        var expected = new Dictionary<string, (string Id, string Host)>();
        var problems = new List<string>();
        foreach (var host in hosts)
        {
            var ids = await sources.First(s => s.Reaches(host)).IdsAsync(host, wanted, ct);
            foreach (var image in wanted)
            {
                var id = ids.GetValueOrDefault(image);
                if (id is null)
                {
                    problems.Add($"host {host.Hostname} lacks image {image}");
                }
                else if (!expected.TryAdd(image, (id, host.Hostname)) && expected[image].Id != id)
                {
                    problems.Add($"host {host.Hostname} has image {image} as {Short(id)}, host {expected[image].Host} as {Short(expected[image].Id)}");
                }
            }
        }
        if (problems.Count > 0)
        {
            throw new SwarmUnavailableException($"{string.Join("; ", problems)}: load the same image on every host ('docker save IMAGE | ssh HOST docker load') or push it to a registry they all pull from");
        }
        return expected.ToDictionary(e => e.Key, e => e.Value.Id);
    }

    private static string Short(string id) => id.StartsWith("sha256:", StringComparison.Ordinal) && id.Length > 19 ? id[7..19] : id;
}
