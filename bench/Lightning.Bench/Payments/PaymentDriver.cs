using System.Collections.Concurrent;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Payments;

/// <summary>
/// Drives payments: each is an invoice on the payee and a payment on the payer, both tagged with the payment's id so
/// the node kind can carry it into its traces. With pre-generated invoices, the invoices were made in setup and a
/// payment is the pay call alone. A benchmark pays in batches, one per invocation, recorded in the case's results; a
/// soak pays one payment at a time (<see cref="PayAsync(PaymentFlow, PaymentTag, long, Action{PaymentAttempt}, CancellationToken)"/>) and counts them itself.
/// </summary>
internal sealed class PaymentDriver(
    IReadOnlyDictionary<string, ILightningNode> nodes,
    IReadOnlyList<PaymentFlow> flows,
    long paymentMsat,
    string labelPrefix,
    RunResults run,
    CaseResults results,
    Func<CancellationToken, Task> throwIfNodeDied,
    INodeMeter? cpu = null)
{
    private int connectionLost;
    private readonly ConcurrentDictionary<PaymentFlow, ConcurrentQueue<NodeInvoice>> pregenerated = new();
    private long flowCursor;
    private int lastInvocation;
    private IReadOnlyDictionary<string, NodeResourceSample>? resourcesBefore;
    private IReadOnlyDictionary<string, long>? cpuBefore;

    /// <summary>Starts <paramref name="count"/> payments at once, spread over the flows, and waits for all; failures are recorded, not thrown.</summary>
    public async Task RunBatchAsync(int count, CancellationToken ct = default)
    {
        var invocation = lastInvocation = results.StartInvocation();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var payments = new Task[count];
        for (var i = 0; i < count; i++)
        {
            var flow = flows[(int)(Interlocked.Increment(ref flowCursor) % flows.Count)];
            payments[i] = PayAsync(invocation, flow, ct);
        }
        await Task.WhenAll(payments);
        if (Interlocked.Exchange(ref connectionLost, 0) == 1)
        {
            // A node closed its RPC socket: if its container is gone, stop the case now instead of failing every payment.
            await throwIfNodeDied(ct);
        }
        results.CompleteInvocation(invocation, clock.Elapsed);
    }

    /// <summary>
    /// The nodes' CPU time just before an invocation, read outside its timing (at the end of BenchmarkDotNet's iteration
    /// setup, after the wait for quiet nodes): on a swarm a reading is a round trip to the agent, which the invocation's
    /// time would otherwise include (and a profile's window too).
    /// </summary>
    public async Task ReadCpuBeforeAsync(CancellationToken ct = default) => cpuBefore = cpu is null ? null : await cpu.ReadAsync(ct);

    /// <summary>The nodes' CPU time just after the invocation (first thing in its cleanup): the invocation's CPU per node.</summary>
    public async Task ReadCpuAfterAsync(CancellationToken ct = default)
    {
        var before = cpuBefore;
        cpuBefore = null;
        if (before is null || cpu is null || lastInvocation == 0)
        {
            return;
        }
        var after = await cpu.ReadAsync(ct);
        results.RecordCpu(lastInvocation, after.Where(a => before.ContainsKey(a.Key)).ToDictionary(a => a.Key, a => a.Value - before[a.Key]));
    }

    /// <summary>
    /// Reads the nodes' memory and storage writes before an invocation. Called outside the invocation's timing
    /// (BenchmarkDotNet's iteration setup): on cgroup v1 a reading lists every process of each node (about 1 ms a node).
    /// </summary>
    public async Task BeforeInvocationAsync(CancellationToken ct = default) => resourcesBefore = cpu is null ? null : await cpu.ReadResourcesAsync(ct);

    /// <summary>After the invocation (BenchmarkDotNet's iteration cleanup): what each node wrote during it, and its memory.</summary>
    public async Task AfterInvocationAsync(CancellationToken ct = default)
    {
        var before = resourcesBefore;
        resourcesBefore = null;
        if (before is null || cpu is null || lastInvocation == 0)
        {
            return;
        }
        var after = await cpu.ReadResourcesAsync(ct);
        results.RecordResources(lastInvocation,
            after.Where(a => before.ContainsKey(a.Key)).ToDictionary(a => a.Key, a => (a.Value.WrittenBytes - before[a.Key].WrittenBytes, a.Value)));
    }

    /// <summary>Creates <paramref name="count"/> invoices ahead, spread over the flows like the payments will be.</summary>
    public async Task PregenerateInvoicesAsync(int count, CancellationToken ct = default)
    {
        var perFlow = (count + flows.Count - 1) / flows.Count;
        await Parallel.ForEachAsync(
            flows.SelectMany(flow => Enumerable.Range(0, perFlow).Select(_ => flow)),
            new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = ct },
            async (flow, c) =>
            {
                var id = run.NextPaymentId();
                var invoice = await CreateInvoiceAsync(flow, new PaymentTag(id, InSetup: true), paymentMsat, c);
                pregenerated.GetOrAdd(flow, _ => new ConcurrentQueue<NodeInvoice>()).Enqueue(invoice);
            });
    }

    private Task PayAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = run.NextPaymentId();
        return PayAsync(flow, new PaymentTag(id), paymentMsat, attempt =>
        {
            if (attempt.ConnectionLost)
            {
                Interlocked.Exchange(ref connectionLost, 1);
            }
            results.Add(new PaymentRecord(results.CaseKey, invocation, id, flow.Payer, flow.Payee,
                attempt.Start, attempt.InvoiceDone, attempt.End, attempt.PaymentHash, attempt.Outcome, attempt.Error));
        }, ct);
    }

    /// <summary>
    /// One payment of <paramref name="amountMsat"/> along <paramref name="flow"/>: an invoice on the payee (unless one
    /// was made ahead for the flow), paid by the payer, both calls tagged <paramref name="tag"/>. <paramref name="record"/>
    /// is told what became of it: a failure the nodes report is recorded, not thrown; a cancellation is recorded, then thrown.
    /// </summary>
    public async Task PayAsync(PaymentFlow flow, PaymentTag tag, long amountMsat, Action<PaymentAttempt> record, CancellationToken ct = default)
    {
        var start = DateTimeOffset.UtcNow;
        var invoiceDone = start;
        string? paymentHash = null;
        try
        {
            // Invoices made ahead are for the driver's own amount.
            if (amountMsat != paymentMsat || !pregenerated.TryGetValue(flow, out var queue) || !queue.TryDequeue(out var invoice))
            {
                invoice = await CreateInvoiceAsync(flow, tag, amountMsat, ct);
                invoiceDone = DateTimeOffset.UtcNow;
            }
            paymentHash = invoice.PaymentHash;
            await nodes[flow.Payer].PayAsync(invoice, tag, ct);
            Record(PaymentOutcome.Succeeded, null);
        }
        catch (NodeCallException e)
        {
            Record(PaymentOutcome.Failed, e.Message, lostConnection: e.Failure == NodeCallFailure.ConnectionLost);
        }
        catch (OperationCanceledException)
        {
            Record(PaymentOutcome.Failed, "cancelled: a node died or the run was stopped", cancelled: true);
            throw;
        }

        void Record(PaymentOutcome outcome, string? error, bool lostConnection = false, bool cancelled = false) =>
            record(new PaymentAttempt(start, invoiceDone, DateTimeOffset.UtcNow, paymentHash, outcome, error, lostConnection, cancelled));
    }

    private Task<NodeInvoice> CreateInvoiceAsync(PaymentFlow flow, PaymentTag tag, long amountMsat, CancellationToken ct) =>
        nodes[flow.Payee].CreateInvoiceAsync(amountMsat, $"{labelPrefix}-{tag.PaymentId}", $"lnbench payment {tag.PaymentId} from {flow.Payer}", tag, ct);
}
