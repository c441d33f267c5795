using Lightning.Bench.Docker;
using Lightning.Bench.Options;

namespace Lightning.Bench.Profiling;

/// <summary>
/// A case's profiles: one <see cref="PerfRecording"/> per Lightning node (its container's cgroup, so its subdaemons and
/// plugins are in it and the harness and the other nodes are not), sampling only the invocations the case lifecycle
/// switches it on for, folded when the case ends.
/// </summary>
internal sealed class CaseProfiler : ICaseProfiler
{
    private readonly IReadOnlyDictionary<string, PerfRecording> recordings;
    private bool enabled;
    private int disposed;

    private CaseProfiler(IReadOnlyDictionary<string, PerfRecording> recordings) => this.recordings = recordings;

    /// <summary>
    /// Which invocations are sampled: every other measured one (the 1st, 3rd, … after the warmups), so the same
    /// topology also runs unsampled invocations next to them in time, and the cost of sampling is measured, not guessed.
    /// </summary>
    public static bool Samples(int invocation, int warmups) => invocation > warmups && (invocation - warmups) % 2 == 1;

    /// <summary>Starts a disabled recording per node (containers by node name); a node that cannot be profiled fails the start with its reason.</summary>
    public static async Task<CaseProfiler> StartAsync(
        DockerEngine engine,
        ProfileSettings settings,
        IReadOnlyDictionary<string, string> containersByNode,
        string folder,
        string buildIdDirectory,
        CancellationToken ct = default
    )
    {
        var recordings = new Dictionary<string, PerfRecording>();
        try
        {
            foreach (var (node, container) in containersByNode)
            {
                var details = await engine.InspectContainerAsync(container, ct);
                var (cgroup, problem) = PerfCgroup.Of(details?.Pid ?? 0);
                if (cgroup is null)
                {
                    throw new IOException($"{node}: {problem}");
                }
                recordings[node] = await PerfRecording.StartAsync(settings, cgroup, folder, node, buildIdDirectory, ct);
            }
        }
        catch
        {
            foreach (var recording in recordings.Values)
            {
                await recording.DisposeAsync();
            }
            throw;
        }
        return new CaseProfiler(recordings);
    }

    public async Task EnableAsync(CancellationToken ct = default)
    {
        enabled = true;
        await Task.WhenAll(recordings.Values.Select(r => r.EnableAsync(ct)));
    }

    /// <summary>Switches sampling off (nothing when it was not on).</summary>
    public async Task DisableAsync(CancellationToken ct = default)
    {
        if (!enabled)
        {
            return;
        }
        enabled = false;
        await Task.WhenAll(recordings.Values.Select(r => r.DisableAsync(ct)));
    }

    /// <summary>Each node's folded stacks, how long it was sampled and how big its raw recording was.</summary>
    public async Task<
        IReadOnlyDictionary<string, (FoldedStacks Stacks, TimeSpan Sampled, long RawBytes)>
    > StopAndFoldAsync(CancellationToken ct = default)
    {
        var folded = new Dictionary<string, (FoldedStacks, TimeSpan, long)>();
        // One at a time: `perf script` with DWARF unwinding keeps a CPU busy, and the machine has few.
        foreach (var (node, recording) in recordings)
        {
            var stacks = await recording.StopAndFoldAsync(ct);
            folded[node] = (stacks, recording.Enabled, recording.DataBytes);
        }
        return folded;
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref disposed, 1) == 1)
        {
            return;
        }
        foreach (var recording in recordings.Values)
        {
            await recording.DisposeAsync();
        }
    }
}
