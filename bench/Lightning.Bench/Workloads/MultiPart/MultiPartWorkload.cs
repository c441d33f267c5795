using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Workloads.MultiPart;

/// <summary>
/// See <see cref="MultiPartKind"/>. A payment larger than one channel moves most of the paths' liquidity to the payee,
/// so before each invocation, outside its timing, the payee pays the payer back what the last invocation moved (in
/// parts too): every invocation starts from the same balances.
/// </summary>
internal sealed class MultiPartWorkload(WorkloadSetup setup) : IWorkload
{
    private readonly PaymentDriver payments = new(setup);
    private long repaidMsat;
    private long backId;

    public Task PrepareAsync(int operations, CancellationToken ct = default) => payments.PrepareAsync(operations, ct);

    public async Task BeforeInvocationAsync(int operations, CancellationToken ct = default)
    {
        var owed = payments.PaidMsat - repaidMsat;
        if (owed <= 0)
        {
            return;
        }
        foreach (var flow in setup.Flows.Take(1))
        {
            // Made and paid as setup, under ids of their own: no operation of the workload.
            var tag = new PaymentTag(-Interlocked.Increment(ref backId), InSetup: true);
            var invoice = await setup.Nodes[flow.Payer].CreateInvoiceAsync(owed, $"{setup.LabelPrefix}-back-{-tag.PaymentId}", "lnbench: the paths' liquidity back", tag, ct);
            await setup.Nodes[flow.Payee].PayAsync(invoice, tag, ct);
        }
        repaidMsat += owed;
    }

    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) => payments.RunAsync(invocation, operations, ct);
}
