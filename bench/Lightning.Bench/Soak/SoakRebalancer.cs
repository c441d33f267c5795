using Lightning.Bench.Cases;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Soak;

/// <summary>
/// Keeps a soak's channels from draining. Payments move the payer's side of a channel to the payee, so whenever a flow
/// has sent 40 % of the topology's smallest channel since the last time, its payee pays all but 5 % of the channel back
/// in one payment (a rebalance: counted in soak.csv, not as a payment). A rebalance that fails is tried again after the
/// flow's next payment.
/// </summary>
internal sealed class SoakRebalancer(
    RunContext run,
    PaymentDriver driver,
    TopologySpec topology,
    SoakTally tally,
    CancellationToken stop
)
{
    private const double RebalanceShare = 0.4;
    private const double RebalanceKeep = 0.05;
    private readonly (long AtMsat, long KeepMsat) plan = Plan(topology);
    private readonly Dictionary<PaymentFlow, long> sentSinceRebalance = topology.Flows.ToDictionary(f => f, _ => 0L);

    /// <summary>
    /// When a flow has sent 40 % of the topology's smallest channel, its payee pays back all but 5 % of the channel
    /// (its reserve, 1 %, and fees stay covered).
    /// </summary>
    public static (long AtMsat, long KeepMsat) Plan(TopologySpec topology)
    {
        var capacityMsat = topology.Channels.Min(c => c.CapacitySat) * 1000;
        return ((long)(capacityMsat * RebalanceShare), (long)(capacityMsat * RebalanceKeep));
    }

    /// <summary>After a successful payment of <paramref name="amountMsat"/> along <paramref name="flow"/>: pays the flow back when it is due.</summary>
    public async Task AfterPaymentAsync(PaymentFlow flow, long amountMsat)
    {
        long payBack = 0;
        lock (sentSinceRebalance)
        {
            sentSinceRebalance[flow] += amountMsat;
            if (sentSinceRebalance[flow] >= plan.AtMsat)
            {
                // Pay back all but a margin that covers the payee's channel reserve and fees.
                payBack = sentSinceRebalance[flow] - plan.KeepMsat;
                sentSinceRebalance[flow] = plan.KeepMsat;
            }
        }
        if (payBack > 0 && !await PayBackAsync(flow, payBack))
        {
            lock (sentSinceRebalance)
            {
                sentSinceRebalance[flow] += payBack; // tried again after the next payment
            }
        }
    }

    /// <summary>The payee pays the payer back; false when it could not.</summary>
    private async Task<bool> PayBackAsync(PaymentFlow flow, long amountMsat)
    {
        var tag = new PaymentTag(run.Results.NextPaymentId(), InSetup: true);
        PaymentAttempt? attempt = null;
        try
        {
            await driver.PayAsync(new PaymentFlow(flow.Payee, flow.Payer), tag, amountMsat, a => attempt = a, stop);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return true;
        }
        if (attempt!.Outcome == OperationOutcome.Failed)
        {
            run.Progress.Info(
                $"soak: {flow.Payee} could not pay {amountMsat / 1000} sat back to {flow.Payer} ({attempt.Error}); trying again after the next payment"
            );
            return false;
        }
        tally.Rebalanced();
        return true;
    }
}
