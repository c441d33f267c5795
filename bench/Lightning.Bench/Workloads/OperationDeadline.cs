namespace Lightning.Bench.Workloads;

/// <summary>
/// One operation's time limit (--operation-timeout): its calls take <see cref="Token"/>, which ends with the run's or at
/// the limit. An operation the limit cut off is a failed one with <see cref="Reason"/>, counted once, and its invocation
/// goes on; one the run's cancellation cut off is recorded as cancelled and the cancellation goes on. One still
/// unanswered at <see cref="NoticeAfter"/> (or half its limit, if sooner) is said once, so a run that waits on it does
/// not look stopped.
/// </summary>
internal sealed class OperationDeadline : IDisposable
{
    /// <summary>When an operation still unanswered is said.</summary>
    public static readonly TimeSpan NoticeAfter = TimeSpan.FromSeconds(60);

    private readonly CancellationTokenSource limit;
    private readonly CancellationToken run;
    private readonly TimeSpan after;
    private readonly Timer? notice;

    /// <param name="say">Told, once, of an operation still unanswered (<paramref name="what"/> names it); null: nothing said.</param>
    /// <param name="noticeAt">When to say it (by default <see cref="NoticeAfter"/>, or half the limit if sooner).</param>
    public OperationDeadline(
        TimeSpan after,
        CancellationToken run,
        string what = "an operation",
        Action<string>? say = null,
        TimeSpan? noticeAt = null
    )
    {
        this.after = after;
        this.run = run;
        limit = CancellationTokenSource.CreateLinkedTokenSource(run);
        limit.CancelAfter(after);
        if (say is not null)
        {
            var at = noticeAt ?? (after / 2 < NoticeAfter ? after / 2 : NoticeAfter);
            notice = new Timer(
                _ =>
                {
                    if (!limit.IsCancellationRequested)
                    {
                        say(
                            FormattableString.Invariant(
                                $"{what}: no answer yet after {at.TotalSeconds:0.###} s; given up at {after.TotalSeconds:0.###} s (--operation-timeout)"
                            )
                        );
                    }
                },
                null,
                at,
                Timeout.InfiniteTimeSpan
            );
        }
    }

    public CancellationToken Token => limit.Token;

    /// <summary>Whether the limit, not the run, ended the operation.</summary>
    public bool Passed => limit.IsCancellationRequested && !run.IsCancellationRequested;

    /// <summary>Why the operation failed when the limit ended it.</summary>
    public string Reason =>
        FormattableString.Invariant(
            $"no answer in {after.TotalSeconds:0.###} s (--operation-timeout): given up; the node may still hold it"
        );

    public void Dispose()
    {
        notice?.Dispose();
        limit.Dispose();
    }
}
