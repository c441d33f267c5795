using System.Collections.Concurrent;
using System.Text.Json.Nodes;
using System.Text.Json;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Results;
using Lightning.Bench.Rpc;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Payments;

/// <summary>
/// Drives payments: each is an invoice on the payee and an xpay on the payer, both with JSON-RPC ids that name the
/// payment (lnbench:invoice#ID, lnbench:xpay#ID), so node traces can be joined to it. With pre-generated invoices,
/// the invoices were made in setup (lnbench:invoice#setup-ID) and a payment is the xpay alone.
/// </summary>
public sealed class PaymentDriver(
    IReadOnlyDictionary<string, LightningNode> nodes,
    IReadOnlyList<PaymentFlow> flows,
    long amountMsat,
    string labelPrefix,
    PaymentLedger ledger,
    CaseResults results,
    Func<CancellationToken, Task> throwIfNodeDied)
{
    private int connectionLost;
    private readonly ConcurrentDictionary<PaymentFlow, ConcurrentQueue<Invoice>> pregenerated = new();
    private long flowCursor;

    /// <summary>Starts <paramref name="count"/> payments at once, spread over the flows, and waits for all; failures are recorded, not thrown.</summary>
    public async Task RunBatchAsync(int count, CancellationToken ct = default)
    {
        var invocation = results.StartInvocation();
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

    /// <summary>Creates <paramref name="count"/> invoices ahead, spread over the flows like the payments will be.</summary>
    public async Task PregenerateInvoicesAsync(int count, CancellationToken ct = default)
    {
        var perFlow = (count + flows.Count - 1) / flows.Count;
        await Parallel.ForEachAsync(
            flows.SelectMany(flow => Enumerable.Range(0, perFlow).Select(_ => flow)),
            new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = ct },
            async (flow, c) =>
            {
                var id = ledger.NextPaymentId();
                var invoice = await CreateInvoiceAsync(flow, id, $"lnbench:invoice#setup-{id}", c);
                pregenerated.GetOrAdd(flow, _ => new ConcurrentQueue<Invoice>()).Enqueue(invoice);
            });
    }

    private async Task PayAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = ledger.NextPaymentId();
        var start = DateTimeOffset.UtcNow;
        var invoiceDone = start;
        string? paymentHash = null;
        try
        {
            if (!pregenerated.TryGetValue(flow, out var queue) || !queue.TryDequeue(out var invoice))
            {
                invoice = await CreateInvoiceAsync(flow, id, $"lnbench:invoice#{id}", ct);
                invoiceDone = DateTimeOffset.UtcNow;
            }
            paymentHash = invoice.PaymentHash;
            await nodes[flow.Payer].CallAsync("xpay", new JsonObject { ["invstring"] = invoice.Bolt11 }, $"lnbench:xpay#{id}", ct);
            Record(PaymentOutcome.Succeeded, null);
        }
        catch (Exception e) when (e is JsonRpcException or RpcConnectionException or JsonException or KeyNotFoundException)
        {
            if (e is RpcConnectionException)
            {
                Interlocked.Exchange(ref connectionLost, 1);
            }
            Record(PaymentOutcome.Failed, e.Message);
        }
        catch (OperationCanceledException)
        {
            Record(PaymentOutcome.Failed, "cancelled: a node died or the run was stopped");
            throw;
        }

        void Record(PaymentOutcome outcome, string? error) => results.Add(new PaymentRecord(
            results.CaseKey, invocation, id, flow.Payer, flow.Payee, start, invoiceDone, DateTimeOffset.UtcNow, paymentHash, outcome, error));
    }

    private async Task<Invoice> CreateInvoiceAsync(PaymentFlow flow, long id, string rpcId, CancellationToken ct)
    {
        var invoice = await nodes[flow.Payee].CallAsync("invoice", new JsonObject
        {
            ["amount_msat"] = amountMsat,
            ["label"] = $"{labelPrefix}-{id}",
            ["description"] = $"lnbench payment {id} from {flow.Payer}",
        }, rpcId, ct);
        return new Invoice(invoice.GetProperty("bolt11").GetString()!, invoice.GetProperty("payment_hash").GetString()!);
    }

    private sealed record Invoice(string Bolt11, string PaymentHash);
}
