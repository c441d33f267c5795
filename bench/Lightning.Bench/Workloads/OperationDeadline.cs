namespace Lightning.Bench.Workloads;

/// <summary>
/// One operation's time limit (--operation-timeout): its calls take <see cref="Token"/>, which ends with the run's or at
/// the limit. An operation the limit cut off is a failed one with <see cref="Reason"/>, counted once, and its invocation
/// goes on; one the run's cancellation cut off is recorded as cancelled and the cancellation goes on.
/// </summary>
internal sealed class OperationDeadline : IDisposable
{
    private readonly CancellationTokenSource limit;
    private readonly CancellationToken run;
    private readonly TimeSpan after;

    public OperationDeadline(TimeSpan after, CancellationToken run)
    {
        this.after = after;
        this.run = run;
        limit = CancellationTokenSource.CreateLinkedTokenSource(run);
        limit.CancelAfter(after);
    }

    public CancellationToken Token => limit.Token;

    /// <summary>Whether the limit, not the run, ended the operation.</summary>
    public bool Passed => limit.IsCancellationRequested && !run.IsCancellationRequested;

    /// <summary>Why the operation failed when the limit ended it.</summary>
    public string Reason =>
        FormattableString.Invariant(
            $"no answer in {after.TotalSeconds:0.###} s (--operation-timeout): given up; the node may still hold it"
        );

    public void Dispose() => limit.Dispose();
}
