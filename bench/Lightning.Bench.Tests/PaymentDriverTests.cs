using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Tests;

/// <summary>
/// The driver's one payment (invoice on the payee, pay on the payer, the outcome told), which a benchmark's batches and
/// a soak's payments and rebalances share, on in-memory nodes.
/// </summary>
[Trait("Category", "Unit")]
public class PaymentDriverTests
{
    private const long AmountMsat = 1_000;
    private readonly ScriptedNode alice = new("alice");
    private readonly ScriptedNode bob = new("bob");
    private readonly PaymentFlow flow = new("alice", "bob");
    private readonly RunResults run = new();
    private readonly CaseResults results;
    private readonly PaymentDriver driver;

    public PaymentDriverTests()
    {
        results = run.StartCase("case", new Dictionary<string, string>(), 2);
        driver = new PaymentDriver(
            new Lightning.Bench.Workloads.WorkloadSetup(
                new Dictionary<string, ILightningNode> { ["alice"] = alice, ["bob"] = bob },
                [flow],
                AmountMsat,
                "lnbench-test",
                new Lightning.Bench.Workloads.OperationLog(run, results),
                MadeAhead: false
            )
        );
    }

    [Fact]
    public async Task A_payment_is_an_invoice_on_the_payee_paid_by_the_payer_and_a_lost_connection_is_its_failure_not_thrown()
    {
        var attempts = new List<PaymentAttempt>();
        var tag = new PaymentTag(7);
        await driver.PayAsync(flow, tag, AmountMsat, attempts.Add);

        var paid = Assert.Single(attempts);
        Assert.Equal(OperationOutcome.Succeeded, paid.Outcome);
        Assert.Equal("hash-7", paid.PaymentHash);
        Assert.Null(paid.Error);
        Assert.True(paid.Start <= paid.InvoiceDone && paid.InvoiceDone <= paid.End);
        Assert.Equal((AmountMsat, "lnbench-test-7", tag), Assert.Single(bob.Invoices));
        Assert.Equal(tag, Assert.Single(alice.Paid));

        alice.Pay = (_, _) =>
            throw new NodeCallException("alice", "xpay", NodeCallFailure.ConnectionLost, "alice's RPC socket closed");
        await driver.PayAsync(flow, new PaymentTag(8), AmountMsat, attempts.Add);

        var lost = attempts[1];
        Assert.Equal(OperationOutcome.Failed, lost.Outcome);
        Assert.Equal("alice's RPC socket closed", lost.Error);
        Assert.True(lost.ConnectionLost);
        Assert.False(lost.Cancelled);
        Assert.Equal("hash-8", lost.PaymentHash);
        Assert.Empty(results.Records);
    }

    [Fact]
    public async Task A_cancelled_payment_is_told_as_cancelled_then_thrown()
    {
        var attempts = new List<PaymentAttempt>();
        var paying = new TaskCompletionSource();
        alice.Pay = async (_, ct) =>
        {
            paying.SetResult();
            await Task.Delay(Timeout.Infinite, ct);
        };
        using var stop = new CancellationTokenSource();
        var payment = driver.PayAsync(flow, new PaymentTag(1), AmountMsat, attempts.Add, stop.Token);
        await paying.Task;
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => payment);
        var cancelled = Assert.Single(attempts);
        Assert.Equal(OperationOutcome.Failed, cancelled.Outcome);
        Assert.True(cancelled.Cancelled);
        Assert.False(cancelled.ConnectionLost);
        Assert.StartsWith("cancelled:", cancelled.Error);
    }

    [Fact]
    public async Task Invoices_made_ahead_serve_the_drivers_own_amount_only_and_a_batch_records_its_payments_in_the_case()
    {
        await driver.PregenerateInvoicesAsync(2);
        Assert.Equal(2, bob.Invoices.Count);
        Assert.All(bob.Invoices, i => Assert.True(i.Tag.InSetup));

        // Another amount (a soak's rebalance) gets an invoice of its own and leaves those made ahead.
        var attempts = new List<PaymentAttempt>();
        await driver.PayAsync(flow, new PaymentTag(100, InSetup: true), 5 * AmountMsat, attempts.Add);
        Assert.Equal(OperationOutcome.Succeeded, Assert.Single(attempts).Outcome);
        Assert.Equal(5 * AmountMsat, bob.Invoices[^1].AmountMsat);

        await driver.RunAsync(1, 2);
        Assert.Equal(3, bob.Invoices.Count);
        Assert.Equal(2, results.Records.Count);
        Assert.All(
            results.Records,
            r =>
            {
                Assert.Equal(OperationOutcome.Succeeded, r.Outcome);
                Assert.Equal(1, r.Invocation);
                Assert.Equal(r.Start, r.InvoiceDone); // the invoice was there before the payment started
                Assert.Equal(("alice", "bob"), (r.Payer, r.Payee));
            }
        );
        Assert.Equal(
            bob.Invoices.Take(2).Select(i => $"hash-{i.Tag.PaymentId}").Order(),
            results.Records.Select(r => r.PaymentHash).Order()
        );
    }
}
