namespace Lightning.Bench.Cases;

/// <summary>
/// Before each invocation of a timed case, outside its timing, the harness waits until the nodes have fallen quiet:
/// the last payment's trailing work (the commitments and revocations exchanged after the payer has its preimage, and
/// with traces on the spans of it) is then neither folded into the next invocation nor racing it. Without the wait,
/// whether a payment's HTLC overtook the previous payment's commitment dance varied from topology to topology and
/// about doubled the spread between topologies (docs/comparing-builds.md); BenchmarkDotNet's forced collections
/// between iterations used to make a few milliseconds of such a pause by accident. `--back-to-back` measures without
/// it, as a plain loop does.
/// </summary>
internal static class TimedSettle
{
    /// <summary>Quiet: over this long, the nodes together used less than <see cref="BusyShare"/> of a core.</summary>
    public static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(10);

    /// <summary>See <see cref="Quiet"/>: a node's idle work (timers, chain polling) stays under it.</summary>
    public const double BusyShare = 0.1;

    /// <summary>How often the nodes' cgroup CPU counters are read while waiting.</summary>
    public static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(1);

    /// <summary>The longest wait before an invocation goes ahead anyway (counted in summary.json).</summary>
    public static readonly TimeSpan Limit = TimeSpan.FromSeconds(1);
}
