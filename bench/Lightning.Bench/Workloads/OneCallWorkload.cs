using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads;

/// <summary>
/// A workload whose operation is one call on a flow's payer, nothing made ahead (keysend; the bookkeeper's balances):
/// each call is an operation with its outcome, the node's refusal its reason.
/// </summary>
/// <param name="call">The call, on the flow and its operation's tag.</param>
/// <param name="toPayee">Whether the operation goes to the flow's payee (keysend) or stays on the payer (balances).</param>
internal sealed class OneCallWorkload(
    WorkloadSetup setup,
    Func<PaymentFlow, PaymentTag, CancellationToken, Task> call,
    bool toPayee
) : IWorkload
{
    private readonly FlowRotation flows = new(setup.Flows);

    public Task PrepareAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task BeforeInvocationAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
        flows.RunAsync(operations, flow => CallAsync(invocation, flow, ct));

    private async Task CallAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = setup.Log.NextId();
        var start = DateTimeOffset.UtcNow;
        void Record(OperationOutcome outcome, string? reason, bool lostConnection = false) =>
            setup.Log.Record(
                new OperationRecord(
                    setup.Log.CaseKey,
                    invocation,
                    id,
                    flow.Payer,
                    toPayee ? flow.Payee : flow.Payer,
                    start,
                    start,
                    DateTimeOffset.UtcNow,
                    null,
                    outcome,
                    reason
                ),
                lostConnection
            );
        using var deadline = setup.Deadline($"{flow.Payer}: operation {id}", ct);
        try
        {
            await deadline.AnswerAsync(flow.Payer, "call", t => call(flow, new PaymentTag(id), t));
            Record(OperationOutcome.Succeeded, null);
        }
        catch (NodeCallException e)
        {
            Record(OperationOutcome.Failed, e.Message, e.Failure == NodeCallFailure.ConnectionLost);
        }
        catch (OperationCanceledException)
        {
            Record(OperationOutcome.Failed, Payments.PaymentAttempt.CancelledReason);
            throw;
        }
    }
}
