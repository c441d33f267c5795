using System.Net;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>How an agent runs (from `Lightning.Bench agent …`, see <see cref="AgentOptionCatalog"/>).</summary>
/// <param name="Listen">Where it accepts the harness (on a swarm: the overlay address, port 9736).</param>
/// <param name="Token">The run's token; a harness that shows another is refused.</param>
/// <param name="WorkDirectory">The shared work volume: node folders at WORK/TOPOLOGY/NODE, trace sockets in them.</param>
/// <param name="ProcRoot">Where the host's /proc is (host pids from the manager are read there).</param>
/// <param name="Owner">uid:gid given the node folders and sockets it makes, or null to leave them its own.</param>
/// <param name="Host">Its host's name, told to the harness.</param>
/// <param name="MaxQueuedSpans">Span frames held for the harness (while it is away); more are dropped and counted.</param>
/// <param name="CountersInterval">How often every stream's counts are sent.</param>
/// <param name="PerfPath">The perf program profiles are recorded with (when not in helper containers).</param>
/// <param name="PerfContainer">perf in helper containers of the harness image (a swarm agent), or null to run perf itself.</param>
internal sealed record AgentSettings(
    IPEndPoint Listen,
    byte[] Token,
    string WorkDirectory,
    string ProcRoot = "/proc",
    (int Uid, int Gid)? Owner = null,
    string? Host = null,
    int MaxQueuedSpans = AgentSettings.DefaultMaxQueuedSpans,
    TimeSpan? CountersInterval = null,
    string PerfPath = "perf",
    PerfContainerSettings? PerfContainer = null
)
{
    /// <summary>At Core Lightning's 2 KiB per span at most, 128 MiB: some seconds of a busy topology's spans.</summary>
    public const int DefaultMaxQueuedSpans = 65536;

    public override string ToString() =>
        $"AgentSettings {{ Listen = {Listen}, Token = ***, WorkDirectory = {WorkDirectory} }}";
}
