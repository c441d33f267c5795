using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Profiling;

/// <summary>
/// A run's profiling: the settings and perf it was checked with, a private folder under the work root for perf's raw
/// recordings and its cache of the binaries it sampled (shared by the run's cases, removed at the end), and the cases'
/// recordings still running, so a run stopped mid-case leaves no perf process behind.
/// </summary>
internal sealed class RunProfiling : IAsyncDisposable
{
    private readonly HashSet<ICaseProfiler> live = new();
    private readonly string folder;

    private RunProfiling(ProfileSettings settings, string perfVersion, string folder)
    {
        Settings = settings;
        PerfVersion = perfVersion;
        this.folder = folder;
    }

    public ProfileSettings Settings { get; }

    public string PerfVersion { get; }

    public static RunProfiling Create(ProfileSettings settings, string perfVersion, string workRoot, string runId)
    {
        var folder = PrivateFiles.CreateDirectory(Path.Combine(workRoot, $"lnbench-{runId}-perf".ToLowerInvariant()));
        NodeFolderSweeper.Claim(folder);
        return new RunProfiling(settings, perfVersion, folder);
    }

    /// <summary>Starts a case's recordings (Lightning nodes' containers by node name), switched off.</summary>
    public async Task<ICaseProfiler> StartCaseAsync(
        DockerEngine engine,
        IReadOnlyDictionary<string, string> containersByNode,
        string caseFolder,
        CancellationToken ct = default
    ) =>
        Live(
            await CaseProfiler.StartAsync(
                engine,
                Settings,
                containersByNode,
                Path.Combine(folder, caseFolder),
                Path.Combine(folder, "buildid"),
                ct
            )
        );

    /// <summary>Tracks a case's recordings made elsewhere (by a swarm host's agent), so the run's end stops them too.</summary>
    public ICaseProfiler Track(ICaseProfiler profiler) => Live(profiler);

    private ICaseProfiler Live(ICaseProfiler profiler)
    {
        lock (live)
        {
            live.Add(profiler);
        }
        return profiler;
    }

    /// <summary>Stops a case's recordings and removes their files.</summary>
    public async Task ReleaseAsync(ICaseProfiler profiler)
    {
        lock (live)
        {
            live.Remove(profiler);
        }
        await profiler.DisposeAsync();
    }

    public async ValueTask DisposeAsync()
    {
        List<ICaseProfiler> left;
        lock (live)
        {
            left = live.ToList();
            live.Clear();
        }
        foreach (var profiler in left)
        {
            await profiler.DisposeAsync();
        }
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Swept by the next run (the folder carries its owner).
        }
    }
}
