using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// The Lightning nodes' CPU time per invocation (their cgroups, read just before and just after it, outside its timing:
/// on a swarm each reading is a round trip to the agent), and their idle rate, so CPU per operation counts what the
/// operations cost, not time passing. The idle window comes before the first invocation, or, for a timed case, after
/// the last (<paramref name="idleAfterOperations"/>), while the next case's topology is set up, where it costs the run nothing.
/// </summary>
internal sealed class NodeCpuWindow(
    INodeMeter meter,
    CaseResults results,
    bool idleAfterOperations,
    RunProgress progress
) : ReadingWindow<IReadOnlyDictionary<string, long>>
{
    /// <summary>Long enough to hold a few of the nodes' periodic chores (bitcoind is polled every second).</summary>
    public static readonly TimeSpan IdleWindow = TimeSpan.FromSeconds(3);

    /// <summary>Before the idle window after the operations: the nodes fall quiet first (a payment's last commitments).</summary>
    public static readonly TimeSpan SettleQuiet = TimeSpan.FromMilliseconds(150);

    public const double SettleBusyShare = 0.05;

    public bool IdleAfterOperations => idleAfterOperations;

    public override async Task MeasureIdleBeforeAsync(CancellationToken ct)
    {
        if (idleAfterOperations)
        {
            return;
        }
        using var idle = progress.Begin($"measuring the nodes' idle CPU for {IdleWindow.TotalSeconds:0} s");
        results.IdleCpuNanosecondsPerSecond = await meter.MeasureIdleAsync(IdleWindow, ct);
    }

    protected override Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct) => meter.ReadAsync(ct);

    protected override void Record(
        Invocation invocation,
        IReadOnlyDictionary<string, long> before,
        IReadOnlyDictionary<string, long> after
    ) =>
        results.RecordCpu(
            invocation.Number,
            after.Where(a => before.ContainsKey(a.Key)).ToDictionary(a => a.Key, a => a.Value - before[a.Key])
        );

    public override async Task MeasureIdleAfterAsync(CancellationToken ct)
    {
        if (!idleAfterOperations)
        {
            return;
        }
        IReadOnlyDictionary<string, double> idle = new Dictionary<string, double>();
        try
        {
            await meter.WaitQuietAsync(null, SettleQuiet, SettleBusyShare, TimeSpan.FromSeconds(1), ct);
            idle = await meter.MeasureIdleAsync(IdleWindow, ct);
        }
        catch (Exception e) when (e is OperationCanceledException or IOException)
        {
            progress.Info($"case {results.CaseKey}: no idle CPU after its operations: {e.Message}");
        }
        finally
        {
            results.IdleMeasured(idle);
        }
    }
}
