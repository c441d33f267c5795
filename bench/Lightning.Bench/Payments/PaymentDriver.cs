using System.Text.Json;
using System.Text.Json.Nodes;
using Lightning.Bench.Nodes;
using Lightning.Bench.Rpc;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Payments;

/// <summary>
/// Drives payments: each is an invoice on the payee and an xpay on the payer, both with JSON-RPC ids that name the
/// payment (lnbench:invoice#ID, lnbench:xpay#ID), so node traces can be joined to it.
/// </summary>
public sealed class PaymentDriver(
    IReadOnlyDictionary<string, LightningNode> nodes,
    IReadOnlyList<PaymentFlow> flows,
    long amountMsat,
    string labelPrefix,
    PaymentLedger ledger,
    CaseResults results)
{
    private long flowCursor;

    /// <summary>Starts <paramref name="count"/> payments at once and waits for all; failures are recorded, not thrown.</summary>
    public async Task RunBatchAsync(int count, CancellationToken ct = default)
    {
        var invocation = results.StartInvocation();
        var payments = new Task[count];
        for (var i = 0; i < count; i++)
        {
            var flow = flows[(int)(Interlocked.Increment(ref flowCursor) % flows.Count)];
            payments[i] = PayAsync(invocation, flow, ct);
        }
        await Task.WhenAll(payments);
    }

    private async Task PayAsync(int invocation, PaymentFlow flow, CancellationToken ct)
    {
        var id = ledger.NextPaymentId();
        var start = DateTimeOffset.UtcNow;
        var invoiceDone = start;
        string? paymentHash = null;
        try
        {
            var invoice = await nodes[flow.Payee].CallAsync("invoice", new JsonObject
            {
                ["amount_msat"] = amountMsat,
                ["label"] = $"{labelPrefix}-{id}",
                ["description"] = $"lnbench payment {id}",
            }, $"lnbench:invoice#{id}", ct);
            paymentHash = invoice.GetProperty("payment_hash").GetString();
            invoiceDone = DateTimeOffset.UtcNow;
            await nodes[flow.Payer].CallAsync("xpay", new JsonObject
            {
                ["invstring"] = invoice.GetProperty("bolt11").GetString(),
            }, $"lnbench:xpay#{id}", ct);
            Record(PaymentOutcome.Succeeded, null);
        }
        catch (Exception e) when (e is JsonRpcException or RpcConnectionException or JsonException or KeyNotFoundException)
        {
            if (invoiceDone == start)
            {
                invoiceDone = DateTimeOffset.UtcNow;
            }
            Record(PaymentOutcome.Failed, e.Message);
        }

        void Record(PaymentOutcome outcome, string? error) => results.Add(new PaymentRecord(
            results.CaseKey, invocation, id, flow.Payer, flow.Payee, start, invoiceDone, DateTimeOffset.UtcNow, paymentHash, outcome, error));
    }
}
