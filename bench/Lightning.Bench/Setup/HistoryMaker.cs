using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>
/// Gives the nodes of a topology that have a history size (<see cref="NodeSpec.HistoryRows"/>) their past, after the
/// channels are open and before the measured window: the node forwards, pays and receives one payment (what its kind's
/// history copies), is stopped, has its rows written (<see cref="INodeHistory"/>), and is started again; the restart is
/// timed to its RPC answering ("restart rpc") and to its first payment that succeeds ("restart pay"), as setup steps.
/// </summary>
internal sealed class HistoryMaker(LightningNetwork network, NodeKindCatalog kinds, RunProgress progress)
{
    /// <summary>
    /// What the setup's payments are worth: 1 msat, as in Core Lightning's own benchmark, so that millions of copies of
    /// their moves stay within the channels' balances (the bookkeeper refuses an account that goes below zero).
    /// </summary>
    public const long SeedPaymentMsat = 1;

    private long setupId;

    /// <param name="historyOf">What the history is (<see cref="HistoryKinds"/>): a history the node only receives (invoices) goes to the payee of its flow.</param>
    public async Task MakeAsync(TopologySpec topology, string historyOf, SetupTimes.Clock clock, CancellationToken ct)
    {
        foreach (var spec in topology.Nodes.Where(n => n.HistoryRows > 0))
        {
            var history = kinds.Get(spec.Kind).HistoryOf(historyOf)
                ?? throw new UsageException($"{spec.Name} is {spec.Kind}, whose nodes cannot be given a history of {historyOf} yet: give the history to a Core Lightning node");
            // A payee's history (its invoices) goes to the payee of the node's flow, paid by the node.
            var payeeHistory = history.Seed == HistorySeed.Receive;
            var payer = payeeHistory ? spec.Name : null;
            var name = payeeHistory ? topology.Flows.First(f => f.Payer == spec.Name).Payee : spec.Name;
            var peers = topology.PeersOf(name);
            using (progress.Begin(payeeHistory ? $"{name}: receiving a payment to copy" : $"{name}: forwarding, paying and receiving a payment to copy"))
            {
                if (history.Seed.HasFlag(HistorySeed.Forward) && peers.Count >= 2)
                {
                    // A forward needs the payer to know the hop beyond this node (the flows' own routes are all setup waited for).
                    await new ChannelOpener(network, progress).WaitRoutesAsync([new PaymentFlow(peers[0], peers[1])], SeedPaymentMsat, ct);
                    await PayAsync(peers[0], peers[1], ct);
                }
                if (history.Seed.HasFlag(HistorySeed.Pay))
                {
                    await PayAsync(name, peers[^1], ct);
                }
                await PayAsync(payer ?? peers[0], name, ct);
                await SettledAsync(name, ct);
            }
            HistoryWritten? written = null;
            await TimedRestart.RestartAsync(network, progress, topology, name, $"writing its history ({spec.HistoryRows:N0} rows of {history.What.Split(':')[0]})", async c =>
            {
                written = await history.WriteAsync(network.Layout.NodeDirectory(name), spec.HistoryRows, c);
                clock.Lap("history");
            }, clock, ct);
            // The node must see the history it is measured with: its own listing shows the last row written.
            await history.ConfirmAsync(network.Nodes[name], written!, ct);
            // Until a payment succeeds again: the node's own (its flow), or, for a payee's history, one to it.
            var (from, to) = payeeHistory ? (payer!, name) : (name, peers[^1]);
            using (progress.Begin($"{name}: restarted; waiting until {from} pays {to}"))
            {
                await network.WaitSyncedAsync(ct);
                await network.Waits.UntilAsync($"{from} to pay {to} after {name}'s restart", async c =>
                {
                    await PayAsync(from, to, c);
                    return WaitState.Met();
                }, ct);
            }
            clock.Lap($"{SetupStep.RestartPrefix} pay");
            progress.Info($"{name}: a history of {spec.HistoryRows:N0} {historyOf} ({written!.Rows:N0} written, the rest its own), restarted");
        }
    }

    /// <summary>One setup payment: an invoice on the payee, paid by the payer (a failure throws: the setup cannot go on).</summary>
    private async Task PayAsync(string payer, string payee, CancellationToken ct)
    {
        var tag = new PaymentTag(-Interlocked.Increment(ref setupId), InSetup: true);
        var invoice = await network.Nodes[payee].CreateInvoiceAsync(SeedPaymentMsat, $"lnbench-history-{-tag.PaymentId}-{Guid.NewGuid():N}", "lnbench: a payment for the history", tag, ct);
        await network.Nodes[payer].PayAsync(invoice, tag, ct);
    }

    /// <summary>Until no HTLC is left on the node's channels (its records of the payments are complete).</summary>
    private Task SettledAsync(string node, CancellationToken ct) => LocalBalances.SettledAsync(network.Nodes[node], network.Waits.UntilAsync, ct);
}
