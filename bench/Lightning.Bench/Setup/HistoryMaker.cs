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

    public async Task MakeAsync(TopologySpec topology, SetupTimes.Clock clock, CancellationToken ct)
    {
        foreach (var spec in topology.Nodes.Where(n => n.HistoryRows > 0))
        {
            var history = kinds.Get(spec.Kind).History
                ?? throw new UsageException($"{spec.Name} is {spec.Kind}, whose nodes cannot be given a history yet: give the history to a Core Lightning node");
            var peers = topology.Channels.Where(c => c.From == spec.Name || c.To == spec.Name).Select(c => c.From == spec.Name ? c.To : c.From).Distinct().ToList();
            using (progress.Begin($"{spec.Name}: forwarding, paying and receiving a payment to copy"))
            {
                if (peers.Count >= 2)
                {
                    // A forward needs the payer to know the hop beyond this node (the flows' own routes are all setup waited for).
                    await new ChannelOpener(network, progress).WaitRoutesAsync([new PaymentFlow(peers[0], peers[1])], SeedPaymentMsat, ct);
                    await PayAsync(peers[0], peers[1], ct);
                }
                await PayAsync(spec.Name, peers[^1], ct);
                await PayAsync(peers[0], spec.Name, ct);
                await SettledAsync(spec.Name, ct);
            }
            var written = 0L;
            var rpc = TimeSpan.Zero;
            using (progress.Begin($"{spec.Name}: stopping it, writing its history ({spec.HistoryRows:N0} rows of {history.What.Split(':')[0]}), starting it"))
            {
                rpc = await network.RestartNodeAsync(spec.Name, async c =>
                {
                    written = await history.WriteAsync(network.Layout.NodeDirectory(spec.Name), spec.HistoryRows, c);
                    clock.Lap("history");
                }, ct);
            }
            clock.Lap($"{SetupStep.RestartPrefix} rpc");
            using (progress.Begin($"{spec.Name}: restarted, its RPC answering after {rpc.TotalSeconds:0.0} s; waiting until it pays"))
            {
                await network.WaitSyncedAsync(ct);
                await network.Waits.UntilAsync($"{spec.Name} to pay {peers[^1]} after its restart", async c =>
                {
                    await PayAsync(spec.Name, peers[^1], c);
                    return WaitState.Met();
                }, ct);
            }
            clock.Lap($"{SetupStep.RestartPrefix} pay");
            progress.Info($"{spec.Name}: a history of {spec.HistoryRows:N0} rows ({written:N0} written, the rest its own), restarted");
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
