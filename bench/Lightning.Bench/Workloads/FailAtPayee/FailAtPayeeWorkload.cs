using System.Collections.Concurrent;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.FailAtPayee;

/// <summary>
/// See <see cref="FailAtPayeeKind"/>. Before each invocation, outside its timing, the payee makes and deletes one
/// invoice per attempt; the invocation is the payers' attempts alone. An attempt that fails with the payee's
/// incorrect_or_unknown_payment_details is as expected; a payment that succeeds, or fails for another reason, is an error.
/// </summary>
internal sealed class FailAtPayeeWorkload(WorkloadSetup setup) : IWorkload
{
    private readonly ConcurrentQueue<(PaymentFlow Flow, long Id, NodeInvoice Invoice)> ready = new();
    private readonly FlowRotation flows = new(setup.Flows);

    public Task PrepareAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    /// <summary>One deleted invoice per attempt of the coming invocation, spread over the flows as the attempts will be.</summary>
    public async Task BeforeInvocationAsync(int operations, CancellationToken ct = default)
    {
        var wanted = operations - ready.Count;
        var next = Enumerable.Range(0, Math.Max(0, wanted)).Select(_ => flows.Next()).ToList();
        await Parallel.ForEachAsync(
            next,
            new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = ct },
            async (flow, c) =>
            {
                var id = setup.Log.NextId();
                ready.Enqueue((flow, id, await DeletedInvoiceAsync(flow, id, c)));
            }
        );
    }

    public async Task RunAsync(int invocation, int operations, CancellationToken ct = default)
    {
        var attempts = new Task[operations];
        for (var i = 0; i < operations; i++)
        {
            attempts[i] = ready.TryDequeue(out var prepared)
                ? AttemptAsync(invocation, prepared.Flow, prepared.Id, prepared.Invoice, ct)
                : PrepareAndAttemptAsync(invocation, ct);
        }
        await Task.WhenAll(attempts);
    }

    /// <summary>An attempt whose invoice was not made ahead (BeforeInvocationAsync was not called): made now, inside the timing.</summary>
    private async Task PrepareAndAttemptAsync(int invocation, CancellationToken ct)
    {
        var flow = flows.Next();
        var id = setup.Log.NextId();
        var start = DateTimeOffset.UtcNow;
        NodeInvoice invoice;
        try
        {
            invoice = await DeletedInvoiceAsync(flow, id, ct);
        }
        catch (NodeCallException e)
        {
            setup.Log.Record(
                new OperationRecord(
                    setup.Log.CaseKey,
                    invocation,
                    id,
                    flow.Payer,
                    flow.Payee,
                    start,
                    start,
                    DateTimeOffset.UtcNow,
                    null,
                    OperationOutcome.Failed,
                    e.Message
                )
                {
                    AsExpected = false,
                },
                e.Failure == NodeCallFailure.ConnectionLost
            );
            return;
        }
        await AttemptAsync(invocation, flow, id, invoice, ct, start);
    }

    private async Task AttemptAsync(
        int invocation,
        PaymentFlow flow,
        long id,
        NodeInvoice invoice,
        CancellationToken ct,
        DateTimeOffset? started = null
    )
    {
        var start = started ?? DateTimeOffset.UtcNow;
        var payStart = started is null ? start : DateTimeOffset.UtcNow;
        void Record(OperationOutcome outcome, string? reason, bool expected, bool lostConnection = false) =>
            setup.Log.Record(
                new OperationRecord(
                    setup.Log.CaseKey,
                    invocation,
                    id,
                    flow.Payer,
                    flow.Payee,
                    start,
                    payStart,
                    DateTimeOffset.UtcNow,
                    invoice.PaymentHash,
                    outcome,
                    reason
                )
                {
                    AsExpected = expected,
                },
                lostConnection
            );
        using var deadline = setup.Deadline($"{flow.Payer}: attempt {id} to {flow.Payee}", ct);
        try
        {
            await deadline.AnswerAsync(
                flow.Payer,
                "pay",
                t => setup.Nodes[flow.Payer].PayAsync(invoice, new PaymentTag(id), t)
            );
            Record(
                OperationOutcome.Succeeded,
                $"the payee accepted a payment of its deleted invoice (expected {FailAtPayeeKind.ExpectedReason})",
                expected: false
            );
        }
        catch (NodeCallException e)
        {
            Record(
                OperationOutcome.Failed,
                e.Message,
                expected: e.PaymentFailure == PaymentFailure.UnknownPaymentDetails,
                lostConnection: e.Failure == NodeCallFailure.ConnectionLost
            );
        }
        catch (OperationCanceledException)
        {
            Record(OperationOutcome.Failed, Payments.PaymentAttempt.CancelledReason, expected: false);
            throw;
        }
    }

    private async Task<NodeInvoice> DeletedInvoiceAsync(PaymentFlow flow, long id, CancellationToken ct)
    {
        var payee = setup.Nodes[flow.Payee];
        var tag = new PaymentTag(id, InSetup: true);
        var label = $"{setup.LabelPrefix}-{id}";
        var invoice = await payee.CreateInvoiceAsync(
            setup.AmountMsat,
            label,
            $"lnbench attempt {id} from {flow.Payer} (deleted)",
            tag,
            ct
        );
        await payee.DeleteInvoiceAsync(label, tag, ct);
        return invoice;
    }
}
