using Lightning.Bench.Results;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Reads a topology's Lightning nodes' cgroups: on one host directly (<see cref="Network.CpuMeter"/>), on a swarm through the
/// agent on the nodes' host (<c>RelayMeter</c>).
/// </summary>
internal interface INodeMeter
{
    /// <summary>Why CPU time cannot be read (then readings are empty), or null.</summary>
    string? Problem { get; }

    /// <summary>Each node's CPU time so far, in nanoseconds (empty when it cannot be read).</summary>
    Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct = default);

    /// <summary>Each node's memory and storage writes so far (empty when they cannot be read).</summary>
    Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadResourcesAsync(CancellationToken ct = default);

    /// <summary>Each node's CPU nanoseconds per second while nothing is asked of it: two readings <paramref name="window"/> apart.</summary>
    async Task<IReadOnlyDictionary<string, double>> MeasureIdleAsync(TimeSpan window, CancellationToken ct = default)
    {
        var before = await ReadAsync(ct);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await Task.Delay(window, ct);
        var after = await ReadAsync(ct);
        var seconds = clock.Elapsed.TotalSeconds;
        return before
            .Where(b => after.ContainsKey(b.Key))
            .ToDictionary(b => b.Key, b => (after[b.Key] - b.Value) / seconds);
    }

    /// <summary>Waits until the nodes together have used less than <paramref name="busyShare"/> of a core above their idle rates over the last <paramref name="quiet"/>, or until <paramref name="limit"/>.</summary>
    Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(
        IReadOnlyDictionary<string, double>? idleNsPerSecond,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        CancellationToken ct = default,
        TimeSpan? poll = null
    );
}
