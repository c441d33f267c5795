namespace Lightning.Bench.Swarm;

/// <summary>The run's agent stack: which image holds the harness, how it is started, the run's labels and its node folders' owner.</summary>
/// <param name="Entrypoint">What starts the harness in <paramref name="Image"/> (e.g. dotnet /lnbench/Lightning.Bench.dll); "agent" and its options follow.</param>
/// <param name="Owner">uid:gid the agent gives the node folders it makes (the nodes' user).</param>
/// <param name="Profiles">Whether the run profiles: the agent then records with the perf <paramref name="Image"/> carries, in helper containers it makes through its host's engine (whose socket it mounts).</param>
/// <param name="Host">The one host the run uses (--swarm-host, or a one-host swarm), or null for every host.</param>
internal sealed record AgentStackSettings(
    string RunId,
    string Image,
    IReadOnlyList<string> Entrypoint,
    string? Owner,
    IReadOnlyDictionary<string, string> Labels,
    bool Profiles = false,
    string? Host = null);
