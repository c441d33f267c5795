using System.Collections.Concurrent;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Payments;

/// <summary>
/// The pay workload: each operation is an invoice on the payee and a payment on the payer, both tagged with the
/// payment's id so the node kind can carry it into its traces. With invoices made ahead, the invoices were made in
/// setup and a payment is the pay call alone. A benchmark pays in batches, one per invocation; a soak pays one payment
/// at a time (<see cref="PayAsync(PaymentFlow, PaymentTag, long, Action{PaymentAttempt}, CancellationToken)"/>) and counts them itself.
/// </summary>
internal sealed class PaymentDriver(WorkloadSetup setup) : IWorkload
{
    private readonly ConcurrentDictionary<PaymentFlow, ConcurrentQueue<NodeInvoice>> pregenerated = new();
    private readonly FlowRotation flows = new(setup.Flows);
    private long paidMsat;

    /// <summary>What the workload's payments have moved from payers to payees so far (msat).</summary>
    public long PaidMsat => Interlocked.Read(ref paidMsat);

    public Task PrepareAsync(int operations, CancellationToken ct = default) =>
        setup.MadeAhead ? PregenerateInvoicesAsync(operations, ct) : Task.CompletedTask;

    public Task BeforeInvocationAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

    /// <summary>Starts <paramref name="operations"/> payments at once, spread over the flows, and waits for all; failures are recorded, not thrown.</summary>
    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
        flows.RunAsync(operations, flow => PayAsync(invocation, flow, ct));

    /// <summary>Creates <paramref name="count"/> invoices ahead, spread over the flows like the payments will be.</summary>
    public async Task PregenerateInvoicesAsync(int count, CancellationToken ct = default)
    {
        var perFlow = (count + setup.Flows.Count - 1) / setup.Flows.Count;
        await Parallel.ForEachAsync(
            setup.Flows.SelectMany(flow => Enumerable.Range(0, perFlow).Select(_ => flow)),
            new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = ct },
            async (flow, c) =>
            {
                var id = setup.Log.NextId();
                var invoice = await CreateInvoiceAsync(flow, new PaymentTag(id, InSetup: true), setup.AmountMsat, c);
                pregenerated.GetOrAdd(flow, _ => new ConcurrentQueue<NodeInvoice>()).Enqueue(invoice);
            }
        );
    }

    private Task PayAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = setup.Log.NextId();
        return PayAsync(
            flow,
            new PaymentTag(id),
            setup.AmountMsat,
            attempt =>
                setup.Log.Record(
                    new OperationRecord(
                        setup.Log.CaseKey,
                        invocation,
                        id,
                        flow.Payer,
                        flow.Payee,
                        attempt.Start,
                        attempt.InvoiceDone,
                        attempt.End,
                        attempt.PaymentHash,
                        attempt.Outcome,
                        attempt.Error
                    )
                    {
                        Parts = attempt.Parts?.Succeeded,
                        FailedParts = attempt.Parts?.Failed,
                    },
                    attempt.ConnectionLost
                ),
            ct
        );
    }

    /// <summary>
    /// One payment of <paramref name="amountMsat"/> along <paramref name="flow"/>: an invoice on the payee (unless one
    /// was made ahead for the flow), paid by the payer, both calls tagged <paramref name="tag"/>. <paramref name="record"/>
    /// is told what became of it: a failure the nodes report is recorded, not thrown; a cancellation is recorded, then thrown.
    /// </summary>
    public async Task PayAsync(
        PaymentFlow flow,
        PaymentTag tag,
        long amountMsat,
        Action<PaymentAttempt> record,
        CancellationToken ct = default
    )
    {
        var start = DateTimeOffset.UtcNow;
        var invoiceDone = start;
        string? paymentHash = null;
        PaymentParts? parts = null;
        using var deadline = setup.Deadline($"{flow.Payer}: payment {tag.PaymentId} to {flow.Payee}", ct);
        try
        {
            // Invoices made ahead are for the workload's own amount.
            if (
                amountMsat != setup.AmountMsat
                || !pregenerated.TryGetValue(flow, out var queue)
                || !queue.TryDequeue(out var invoice)
            )
            {
                invoice = await deadline.AnswerAsync(
                    flow.Payee,
                    "invoice",
                    t => CreateInvoiceAsync(flow, tag, amountMsat, t)
                );
                invoiceDone = DateTimeOffset.UtcNow;
            }
            paymentHash = invoice.PaymentHash;
            parts = await deadline.AnswerAsync(
                flow.Payer,
                "pay",
                t => setup.Nodes[flow.Payer].PayAsync(invoice, tag, t)
            );
            Interlocked.Add(ref paidMsat, amountMsat);
            Record(OperationOutcome.Succeeded, null);
        }
        catch (NodeCallException e)
        {
            Record(OperationOutcome.Failed, e.Message, lostConnection: e.Failure == NodeCallFailure.ConnectionLost);
        }
        catch (OperationCanceledException)
        {
            Record(OperationOutcome.Failed, PaymentAttempt.CancelledReason, cancelled: true);
            throw;
        }

        void Record(OperationOutcome outcome, string? error, bool lostConnection = false, bool cancelled = false) =>
            record(
                new PaymentAttempt(
                    start,
                    invoiceDone,
                    DateTimeOffset.UtcNow,
                    paymentHash,
                    outcome,
                    error,
                    lostConnection,
                    cancelled
                )
                {
                    Parts = parts,
                }
            );
    }

    private Task<NodeInvoice> CreateInvoiceAsync(
        PaymentFlow flow,
        PaymentTag tag,
        long amountMsat,
        CancellationToken ct
    ) =>
        setup
            .Nodes[flow.Payee]
            .CreateInvoiceAsync(
                amountMsat,
                $"{setup.LabelPrefix}-{tag.PaymentId}",
                $"lnbench payment {tag.PaymentId} from {flow.Payer}",
                tag,
                ct
            );
}
