using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// Reads the CPU time of a topology's Lightning nodes from their cgroups: a snapshot around each invocation, and each
/// node's idle rate (background work such as chain polling and timers, which grows with time, not payments).
/// </summary>
internal sealed class CpuMeter : INodeMeter
{
    private readonly IReadOnlyDictionary<string, string> files;
    private readonly IReadOnlyDictionary<string, NodeResources> resources;

    private CpuMeter(
        IReadOnlyDictionary<string, string> files,
        string? problem,
        IReadOnlyDictionary<string, NodeResources>? resources = null
    )
    {
        this.files = files;
        Problem = problem;
        this.resources = resources ?? new Dictionary<string, NodeResources>();
    }

    /// <summary>Why CPU time cannot be read (then snapshots are empty), or null.</summary>
    public string? Problem { get; }

    public static async Task<CpuMeter> CreateAsync(
        DockerEngine engine,
        IReadOnlyDictionary<string, string> containersByNode,
        CancellationToken ct = default
    )
    {
        var files = new Dictionary<string, string>();
        var resources = new Dictionary<string, NodeResources>();
        foreach (var (node, id) in containersByNode)
        {
            var details = await engine.InspectContainerAsync(id, ct);
            var (cgroups, missing) = ProcessCgroups.Of(details?.Pid ?? 0);
            var (file, problem) = cgroups is null ? (null, missing) : CgroupCpu.UsageFileOf(cgroups);
            if (file is null)
            {
                return new CpuMeter(new Dictionary<string, string>(), $"{node}: {problem}");
            }
            files[node] = file;
            if (NodeResources.Of(cgroups!) is ({ } reader, _))
            {
                resources[node] = reader;
            }
        }
        return new CpuMeter(files, null, resources);
    }

    /// <summary>Each node's CPU time so far, in nanoseconds (empty when it cannot be read).</summary>
    public IReadOnlyDictionary<string, long> Read()
    {
        try
        {
            return files.ToDictionary(f => f.Key, f => CgroupCpu.ReadNanoseconds(f.Value));
        }
        catch (Exception e)
            when (e is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
        {
            // A node's cgroup goes when its container does: the case is ending anyway.
            return new Dictionary<string, long>();
        }
    }

    public Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct = default) => Task.FromResult(Read());

    public Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadResourcesAsync(CancellationToken ct = default) =>
        Task.FromResult(ReadResources());

    /// <summary>Each node's memory and storage writes so far (empty when they cannot be read).</summary>
    public IReadOnlyDictionary<string, NodeResourceSample> ReadResources()
    {
        try
        {
            return resources.ToDictionary(r => r.Key, r => r.Value.Read(countFiles: false));
        }
        catch (Exception e)
            when (e is IOException or UnauthorizedAccessException or FormatException or InvalidDataException)
        {
            return new Dictionary<string, NodeResourceSample>();
        }
    }

    /// <summary>
    /// Waits until the nodes together have used less than <paramref name="busyShare"/> of a core above their idle rates
    /// over the last <paramref name="quiet"/>, or until <paramref name="limit"/>; the nodes' own pauses (a commitment
    /// timer, a network hop) are shorter than <paramref name="quiet"/>. Reading cgroups costs the nodes nothing.
    /// </summary>
    /// <returns>How long it waited, and whether the nodes fell quiet (false: the limit was reached).</returns>
    public Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(
        IReadOnlyDictionary<string, double>? idleNsPerSecond,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        CancellationToken ct = default,
        TimeSpan? poll = null
    ) =>
        QuietWait.UntilQuietAsync(
            () => Read() is { Count: > 0 } now ? now.Values.Sum() : null,
            idleNsPerSecond?.Values.Sum() ?? 0,
            quiet,
            busyShare,
            limit,
            poll ?? SettlePoll,
            ct
        );

    private static readonly TimeSpan SettlePoll = TimeSpan.FromMilliseconds(20);
}
