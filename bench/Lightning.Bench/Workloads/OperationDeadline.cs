using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Workloads;

/// <summary>
/// One operation's time limit (--operation-timeout): its calls go through <see cref="AnswerAsync{T}"/>, whose token ends
/// with the run's or at the limit. A call the limit cut off is a node call that failed (<see cref="NodeCallFailure.NoAnswer"/>,
/// <see cref="Reason"/>), which every workload records as it records a node's refusal: a failed operation, counted
/// once, and its invocation goes on; one the run's cancellation cut off is recorded as cancelled and the cancellation
/// goes on. One still
/// unanswered at <see cref="NoticeAfter"/> (or half its limit, if sooner) is said once, so a run that waits on it does
/// not look stopped.
/// </summary>
internal sealed class OperationDeadline : IDisposable
{
    /// <summary>
    /// The limit by default: longer than any call the workloads time (the bookkeeper's digest of a million moves took
    /// 196 s on v25.09.3).
    /// </summary>
    public static readonly TimeSpan DefaultLimit = TimeSpan.FromSeconds(600);

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

    /// <summary>
    /// <paramref name="send"/>'s call to <paramref name="node"/>, given the operation's token; if the limit, not the run,
    /// ended it, a <see cref="NodeCallException"/> saying so.
    /// </summary>
    public async Task<T> AnswerAsync<T>(string node, string call, Func<CancellationToken, Task<T>> send)
    {
        try
        {
            return await send(limit.Token);
        }
        catch (OperationCanceledException) when (Passed)
        {
            throw new NodeCallException(node, call, NodeCallFailure.NoAnswer, Reason);
        }
    }

    /// <inheritdoc cref="AnswerAsync{T}"/>
    public Task AnswerAsync(string node, string call, Func<CancellationToken, Task> send) =>
        AnswerAsync(
            node,
            call,
            async t =>
            {
                await send(t);
                return true;
            }
        );

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
