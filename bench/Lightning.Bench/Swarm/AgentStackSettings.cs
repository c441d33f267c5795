namespace Lightning.Bench.Swarm;

/// <summary>The run's agent stack: which image holds the harness, how it is started, the run's labels and its node folders' owner.</summary>
/// <param name="Entrypoint">What starts the harness in <paramref name="Image"/> (e.g. dotnet /lnbench/Lightning.Bench.dll); "agent" and its options follow.</param>
/// <param name="Owner">uid:gid the agent gives the node folders it makes (the nodes' user).</param>
/// <param name="Profiles">Whether the run profiles: the agent then records with the perf <paramref name="Image"/> carries, in helper containers it makes through its host's engine (whose socket it mounts).</param>
/// <param name="Placement">Where the agents run: swarm constraints limiting them to the hosts the run uses (see
/// <see cref="ForHosts"/>), or none for every host.</param>
internal sealed record AgentStackSettings(
    string RunId,
    string Image,
    IReadOnlyList<string> Entrypoint,
    string? Owner,
    IReadOnlyDictionary<string, string> Labels,
    bool Profiles = false,
    IReadOnlyList<string>? Placement = null
)
{
    /// <summary>
    /// The constraints that put an agent on each of <paramref name="used"/> and on no other of <paramref name="schedulable"/>:
    /// none when the run uses every host, the host's name when it uses one, else every other host's name excluded
    /// (swarm ANDs its constraints, so a set of several hosts is said by the hosts it leaves out).
    /// </summary>
    public static IReadOnlyList<string>? ForHosts(IReadOnlyList<string> used, IReadOnlyList<string> schedulable)
    {
        var left = schedulable.Except(used, StringComparer.Ordinal).ToList();
        return left.Count == 0 ? null
            : used.Count == 1 ? [$"node.hostname == {used[0]}"]
            : left.Select(h => $"node.hostname != {h}").ToList();
    }
}
