namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// How a swarm agent runs perf in helper containers (`agent --perf-image …`).
/// </summary>
/// <param name="Image">The harness image (by id), which carries perf at <see cref="PerfPath"/>.</param>
/// <param name="Entrypoint">The image's harness entrypoint.</param>
/// <param name="WorkVolume">The run's work volume on this host, mounted in the helper at <see cref="WorkMount"/> as in the agent.</param>
/// <param name="Labels">The run's labels, given to every helper container.</param>
internal sealed record PerfContainerSettings(
    string Image,
    IReadOnlyList<string> Entrypoint,
    string WorkVolume,
    string WorkMount,
    IReadOnlyDictionary<string, string> Labels,
    string PerfPath = PerfContainerSettings.ImagePerfPath
)
{
    /// <summary>Where perf is in the harness image (the swarm's image carries it there).</summary>
    public const string ImagePerfPath = "/usr/bin/perf";
}
