using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Workloads;
using Lightning.Bench.Workloads.FailAtPayee;

namespace Lightning.Bench.Tests;

/// <summary>The fail-at-payee workload on in-memory nodes: what is made ahead, and how each outcome is counted.</summary>
[Trait("Category", "Unit")]
public class FailAtPayeeTests
{
    private readonly ScriptedPair pair = new();
    private readonly IWorkload workload;

    public FailAtPayeeTests() => workload = new FailAtPayeeKind().Create(pair.Setup);

    [Fact]
    public async Task Invoices_are_made_and_deleted_outside_the_invocation_and_the_payees_unknown_payment_is_the_expected_outcome()
    {
        await workload.BeforeInvocationAsync(3);
        Assert.Equal(3, pair.Bob.Invoices.Count);
        Assert.Equal(pair.Bob.Invoices.Select(i => i.Label).Order(), pair.Bob.Deleted.Order());
        Assert.All(pair.Bob.Invoices, i => Assert.True(i.Tag.InSetup));
        Assert.Empty(pair.Alice.Paid);

        var calls = 0;
        pair.Alice.Pay = (_, _) =>
            Interlocked.Increment(ref calls) switch
            {
                1 => throw new NodeCallException(
                    "alice",
                    "xpay",
                    NodeCallFailure.Refused,
                    "alice: xpay failed with 203: Destination said it doesn't know invoice: WIRE_INCORRECT_OR_UNKNOWN_PAYMENT_DETAILS"
                )
                {
                    PaymentFailure = PaymentFailure.UnknownPaymentDetails,
                },
                2 => throw new NodeCallException(
                    "alice",
                    "xpay",
                    NodeCallFailure.Refused,
                    "alice: xpay failed with 205: no route"
                ),
                _ => Task.CompletedTask,
            };
        await workload.RunAsync(1, 3);

        // No invoice call in the invocation: the three made ahead were used.
        Assert.Equal(3, pair.Bob.Invoices.Count);
        var records = pair.Results.Records.OrderBy(r => r.PaymentId).ToList();
        Assert.Equal(3, records.Count);
        Assert.Equal(pair.Bob.Invoices.Select(i => i.Tag.PaymentId).Order(), records.Select(r => r.PaymentId));
        Assert.Single(
            records,
            r =>
                r.AsExpected
                && r.Outcome == OperationOutcome.Failed
                && r.Error!.Contains("INCORRECT_OR_UNKNOWN_PAYMENT_DETAILS")
        );
        Assert.Single(
            records,
            r => !r.AsExpected && r.Outcome == OperationOutcome.Failed && r.Error!.Contains("no route")
        );
        Assert.Single(
            records,
            r =>
                !r.AsExpected
                && r.Outcome == OperationOutcome.Succeeded
                && r.Error!.Contains("accepted a payment of its deleted invoice")
        );
        Assert.All(records, r => Assert.Equal(r.Start, r.InvoiceDone));
    }

    [Fact]
    public async Task Figures_count_expected_failures_as_operations_and_errors_apart()
    {
        pair.Alice.Pay = (_, _) =>
            throw new NodeCallException("alice", "xpay", NodeCallFailure.Refused, "unknown")
            {
                PaymentFailure = PaymentFailure.UnknownPaymentDetails,
            };
        await workload.BeforeInvocationAsync(3);
        await workload.RunAsync(1, 3);
        pair.Results.CompleteInvocation(1, TimeSpan.FromMilliseconds(30));
        pair.Results.Complete(0, 1);

        var figures = CaseFigures.Compute(pair.Results, 30e6);
        Assert.Equal(3, figures.AsExpected);
        Assert.Equal(0, figures.Errors);
        Assert.Equal(100, figures.PaymentsPerSecond, 6);
        Assert.False(double.IsNaN(figures.P50Ms));
    }
}
