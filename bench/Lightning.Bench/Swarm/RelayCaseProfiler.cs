using Lightning.Bench.Profiling;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A swarm topology's profiles, recorded and folded by the agent on each of its hosts (<see cref="RelayProfile"/>,
/// one per host: more than one when nodes are placed apart), switched on and off on every host at once.
/// </summary>
internal sealed class RelayCaseProfiler(IReadOnlyList<RelayProfile> profiles) : ICaseProfiler
{
    /// <summary>For a switch (perf acknowledges within 5 s on the agent's host, per node).</summary>
    private static readonly TimeSpan SwitchTimeout = TimeSpan.FromSeconds(30);

    /// <summary>For the folds: `perf script` with DWARF unwinding of a minute's samples takes minutes on a busy host.</summary>
    private static readonly TimeSpan FoldTimeout = TimeSpan.FromMinutes(15);

    private readonly List<double> switchMs = [];
    private int stopped;

    /// <summary>The median round trip of a switch (harness → gate → agent → perf's acknowledgement → back), ms; NaN before any.</summary>
    public double MedianSwitchMs
    {
        get
        {
            lock (switchMs)
            {
                return switchMs.Count == 0 ? double.NaN : switchMs.Order().ElementAt(switchMs.Count / 2);
            }
        }
    }

    private bool on;

    public async Task EnableAsync(CancellationToken ct = default)
    {
        await TimedAsync(() => Task.WhenAll(profiles.Select(p => p.EnableAsync(SwitchTimeout, ct))));
        on = true;
    }

    /// <summary>Switches sampling off (nothing, and no round trip counted, when it was not on).</summary>
    public async Task DisableAsync(CancellationToken ct = default)
    {
        if (!on)
        {
            return;
        }
        on = false;
        await TimedAsync(() => Task.WhenAll(profiles.Select(p => p.DisableAsync(SwitchTimeout, ct))));
    }

    private async Task TimedAsync(Func<Task> change)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        await change();
        lock (switchMs)
        {
            switchMs.Add(System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }
    }

    public async Task<
        IReadOnlyDictionary<string, (FoldedStacks Stacks, TimeSpan Sampled, long RawBytes)>
    > StopAndFoldAsync(CancellationToken ct = default)
    {
        Interlocked.Exchange(ref stopped, 1);
        var folded = await Task.WhenAll(profiles.Select(p => p.StopAndFoldAsync(FoldTimeout, ct)));
        return folded.SelectMany(f => f).ToDictionary(f => f.Key, f => f.Value);
    }

    /// <summary>A case ended before its fold: the agent is told to stop (its recordings end, their stacks are not awaited).</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref stopped, 1) == 0)
        {
            await Task.WhenAll(profiles.Select(p => p.AbandonAsync()));
        }
    }
}
