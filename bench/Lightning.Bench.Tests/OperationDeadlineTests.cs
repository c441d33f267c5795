using Lightning.Bench.Results;
using Lightning.Bench.Workloads;
using Lightning.Bench.Workloads.FailAtPayee;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Tests;

/// <summary>
/// A measured operation no node answers (LND's payment stream when its link failed under PostgreSQL's serialization
/// errors, seen at Concurrency=10) is given up at --operation-timeout: a failed operation with that reason, counted
/// once, and its invocation ends with the others; the run's own cancellation is still a cancellation.
/// </summary>
[Trait("Category", "Unit")]
public class OperationDeadlineTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(2);

    private readonly ScriptedPair pair = new();
    private readonly WorkloadSetup setup;

    public OperationDeadlineTests() => setup = pair.Setup with { OperationTimeout = Limit };

    // The second payment of an invocation is never answered (until the call is given up).
    private void SecondNeverAnswered()
    {
        var calls = 0;
        pair.Alice.Pay = (_, ct) =>
            Interlocked.Increment(ref calls) == 2 ? Task.Delay(Timeout.Infinite, ct) : Task.CompletedTask;
    }

    public static TheoryData<string> Workloads => ["pay", "fail-at-payee"];

    [Theory]
    [MemberData(nameof(Workloads))]
    public async Task A_payment_never_answered_is_one_failed_operation_with_its_reason_and_the_invocation_ends(
        string kind
    )
    {
        SecondNeverAnswered();
        IWorkload workload = kind == "pay" ? new PayWorkloadKind().Create(setup) : new FailAtPayeeKind().Create(setup);
        await workload.BeforeInvocationAsync(3);

        // Without the limit the invocation would never end: the test fails instead of hanging.
        await workload.RunAsync(1, 3).WaitAsync(TimeSpan.FromMinutes(1));

        var records = pair.Results.Records.ToList();
        Assert.Equal(3, records.Count);
        var given = Assert.Single(records, r => r.Error?.Contains("--operation-timeout") == true);
        Assert.Equal(OperationOutcome.Failed, given.Outcome);
        Assert.False(given.AsExpected);
        Assert.Equal("no answer in 2 s (--operation-timeout): given up; the node may still hold it", given.Error);
        // It waited for its limit, no less.
        Assert.True(given.End - given.Start >= Limit - TimeSpan.FromMilliseconds(50), $"{given.End - given.Start}");
        Assert.Equal(2, records.Count(r => r.Error?.Contains("--operation-timeout") != true));
    }

    [Fact]
    public async Task The_runs_own_cancellation_is_still_a_cancellation_recorded_once_and_thrown()
    {
        pair.Alice.Pay = (_, ct) => Task.Delay(Timeout.Infinite, ct);
        var workload = new PayWorkloadKind().Create(setup with { OperationTimeout = TimeSpan.FromHours(1) });
        using var stop = new CancellationTokenSource();
        var running = workload.RunAsync(1, 2, stop.Token);
        await Lightning.Bench.Waiting.Wait.UntilAsync(
            "both payments to be under way",
            _ =>
                Task.FromResult(
                    pair.Alice.Paid.Count == 2
                        ? Lightning.Bench.Waiting.WaitState.Met()
                        : Lightning.Bench.Waiting.WaitState.NotYet($"{pair.Alice.Paid.Count}")
                ),
            TimeSpan.FromSeconds(30)
        );
        stop.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => running);
        Assert.Equal(2, pair.Results.Records.Count);
        Assert.All(pair.Results.Records, r => Assert.Equal(PaymentAttempt.CancelledReason, r.Error));
    }

    [Fact]
    public async Task An_operation_long_unanswered_is_said_once_with_when_it_will_be_given_up()
    {
        var said = new System.Collections.Concurrent.ConcurrentQueue<string>();
        using (
            var deadline = new OperationDeadline(
                TimeSpan.FromHours(1),
                CancellationToken.None,
                "alice: payment 7 to bob",
                said.Enqueue,
                noticeAt: TimeSpan.FromMilliseconds(100)
            )
        )
        {
            await Lightning.Bench.Waiting.Wait.UntilAsync(
                "the operation to be said",
                _ =>
                    Task.FromResult(
                        said.IsEmpty
                            ? Lightning.Bench.Waiting.WaitState.NotYet("nothing said")
                            : Lightning.Bench.Waiting.WaitState.Met()
                    ),
                TimeSpan.FromSeconds(30)
            );
            Assert.False(deadline.Passed);
        }
        Assert.Equal(
            "alice: payment 7 to bob: no answer yet after 0.1 s; given up at 3600 s (--operation-timeout)",
            Assert.Single(said)
        );
    }
}
