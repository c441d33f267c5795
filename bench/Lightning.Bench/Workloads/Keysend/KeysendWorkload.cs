using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Keysend;

/// <summary>See <see cref="KeysendKind"/>: each operation is one keysend along a flow; nothing is made ahead.</summary>
internal sealed class KeysendWorkload(WorkloadSetup setup) : IWorkload
{
    private readonly FlowRotation flows = new(setup.Flows);

    public Task PrepareAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task BeforeInvocationAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
        flows.RunAsync(operations, flow => PayAsync(invocation, flow, ct));

    private async Task PayAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = setup.Log.NextId();
        var start = DateTimeOffset.UtcNow;
        void Record(OperationOutcome outcome, string? reason, bool lostConnection = false) =>
            setup.Log.Record(new OperationRecord(setup.Log.CaseKey, invocation, id, flow.Payer, flow.Payee, start, start, DateTimeOffset.UtcNow,
                null, outcome, reason), lostConnection);
        try
        {
            await setup.Nodes[flow.Payer].KeysendAsync(setup.Nodes[flow.Payee], setup.AmountMsat, new PaymentTag(id), ct);
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
