namespace Lightning.Bench.Waiting;

/// <summary>
/// The wait for quiet nodes, over any reading of their CPU time: until they together have used less than a share of a
/// core above their idle rate over the last window, or until a limit. The harness runs it over its own cgroup reads
/// (<see cref="Network.CpuMeter.WaitQuietAsync"/>) and an agent over those of its host (<c>QuietRequestMessage</c>).
/// </summary>
internal static class QuietWait
{
    /// <param name="read">The nodes' CPU nanoseconds so far, or null when they can no longer be read (the wait ends, not quiet).</param>
    /// <returns>How long it waited, and whether the nodes fell quiet (false: the limit was reached, or the reading failed).</returns>
    public static async Task<(TimeSpan Waited, bool Quiet)> UntilQuietAsync(
        Func<long?> read,
        double idleNsPerSecond,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        TimeSpan poll,
        CancellationToken ct = default
    )
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        // Each reading between two clock readings: on a busy machine this thread can be descheduled between reading the
        // CPU time and reading the clock, and a window timed from the clock alone then looks longer than the CPU time's,
        // so a node that never stopped looked quiet. The window is the shortest the readings can be apart.
        var samples = new Queue<(TimeSpan Before, TimeSpan After, long Ns)>();
        while (true)
        {
            var before = clock.Elapsed;
            if (read() is not { } ns)
            {
                return (clock.Elapsed, false);
            }
            var after = clock.Elapsed;
            samples.Enqueue((before, after, ns));
            // The oldest sample kept is the newest one at least `quiet` before this one.
            while (samples.Count > 2 && before - samples.ElementAt(1).After >= quiet)
            {
                samples.Dequeue();
            }
            var from = samples.Peek();
            var window = before - from.After;
            if (window >= quiet && (ns - from.Ns) / window.TotalSeconds - idleNsPerSecond < busyShare * 1e9)
            {
                return (after, true);
            }
            if (after >= limit)
            {
                return (after, false);
            }
            await Task.Delay(poll, ct);
        }
    }
}
