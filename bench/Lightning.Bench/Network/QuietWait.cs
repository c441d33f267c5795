namespace Lightning.Bench.Network;

/// <summary>
/// The wait for quiet nodes, over any reading of their CPU time: until they together have used less than a share of a
/// core above their idle rate over the last window, or until a limit. The harness runs it over its own cgroup reads
/// (<see cref="CpuMeter.WaitQuietAsync"/>) and an agent over those of its host (<see cref="Relay.QuietRequestMessage"/>).
/// </summary>
internal static class QuietWait
{
    /// <param name="read">The nodes' CPU nanoseconds so far, or null when they can no longer be read (the wait ends, not quiet).</param>
    /// <returns>How long it waited, and whether the nodes fell quiet (false: the limit was reached, or the reading failed).</returns>
    public static async Task<(TimeSpan Waited, bool Quiet)> UntilQuietAsync(Func<long?> read, double idleNsPerSecond, TimeSpan quiet, double busyShare,
        TimeSpan limit, TimeSpan poll, CancellationToken ct = default)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var samples = new Queue<(TimeSpan At, long Ns)>();
        while (true)
        {
            if (read() is not { } ns)
            {
                return (clock.Elapsed, false);
            }
            var at = clock.Elapsed;
            samples.Enqueue((at, ns));
            // The oldest sample kept is the newest one at least `quiet` old.
            while (samples.Count > 2 && at - samples.ElementAt(1).At >= quiet)
            {
                samples.Dequeue();
            }
            var (fromAt, fromNs) = samples.Peek();
            if (at - fromAt >= quiet && (ns - fromNs) / (at - fromAt).TotalSeconds - idleNsPerSecond < busyShare * 1e9)
            {
                return (at, true);
            }
            if (at >= limit)
            {
                return (at, false);
            }
            await Task.Delay(poll, ct);
        }
    }
}
