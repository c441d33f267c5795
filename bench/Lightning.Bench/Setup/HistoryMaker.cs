using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
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
/// <param name="snapshots">Where the histories' rows are kept between topologies and runs (null: each written afresh).</param>
internal sealed class HistoryMaker(
    LightningNetwork network,
    NodeKindCatalog kinds,
    RunProgress progress,
    HistorySnapshotStore? snapshots = null
)
{
    private long setupId;

    /// <param name="historyOf">What the history is (<see cref="HistoryKinds"/>): a history the node only receives (invoices) goes to the payee of its flow.</param>
    public async Task MakeAsync(TopologySpec topology, string historyOf, SetupTimes.Clock clock, CancellationToken ct)
    {
        foreach (var spec in topology.Nodes.Where(n => n.HistoryRows > 0))
        {
            var history =
                kinds.Get(spec.Kind).HistoryOf(historyOf)
                ?? throw new UsageException(
                    $"{spec.Name} is {spec.Kind}, whose nodes cannot be given a history of {historyOf} yet: give the history to a Core Lightning node"
                );
            // A payee's history (its invoices) goes to the payee of the node's flow, paid by the node.
            var payeeHistory = history.Seed == HistorySeed.Receive;
            var payer = payeeHistory ? spec.Name : null;
            var name = payeeHistory
                ? topology.Flows.FirstOrDefault(f => f.Payer == spec.Name)?.Payee
                    ?? throw new UsageException(
                        $"a history of {historyOf} is a payee's, and {spec.Name} pays nobody in this scenario: give it moves, payments or forwards (or the invoices to LargeNode)"
                    )
                : spec.Name;
            var peers = topology.PeersOf(name);
            // The node's forward comes in over a channel a peer funded (its balance on the peer's side) and leaves over
            // one the node funded; it pays over the latter and is paid over the former (alice and bob around LargeNode's
            // carol; alice-1 and bob-1 at a hub).
            var into = topology.Channels.FirstOrDefault(c => c.To == name)?.From ?? peers[0];
            var outOf = topology.Channels.FirstOrDefault(c => c.From == name)?.To ?? peers[^1];
            using (
                progress.Begin(
                    payeeHistory
                        ? $"{name}: receiving a payment to copy"
                        : $"{name}: forwarding, paying and receiving a payment to copy"
                )
            )
            {
                if (history.Seed.HasFlag(HistorySeed.Forward) && into != outOf)
                {
                    // A forward needs the payer to know the hop beyond this node (the flows' own routes are all setup waited for).
                    await new ChannelOpener(network, progress).WaitRoutesAsync(
                        [new PaymentFlow(into, outOf)],
                        history.SeedMsat,
                        ct
                    );
                    await PayAsync(into, outOf, history.SeedMsat, ct);
                }
                if (history.Seed.HasFlag(HistorySeed.Pay))
                {
                    await PayAsync(name, outOf, history.SeedMsat, ct);
                }
                if (payer is null)
                {
                    // The channel it is paid over is not one of the flows' (LND's may not carry a payment yet).
                    await new ChannelOpener(network, progress).WaitRoutesAsync(
                        [new PaymentFlow(into, name)],
                        history.SeedMsat,
                        ct
                    );
                }
                await PayAsync(payer ?? into, name, history.SeedMsat, ct);
                await SettledAsync(name, ct);
            }
            HistoryWritten? written = null;
            await TimedRestart.RestartAsync(
                network,
                progress,
                topology,
                name,
                $"{(snapshots is null || history.Snapshots is null ? "writing" : "writing or copying")} its history ({spec.HistoryRows:N0} rows of {history.What.Split(':')[0]})",
                async c =>
                {
                    written = await WriteAsync(
                        history,
                        topology.Node(name).Image,
                        name,
                        historyOf,
                        spec.HistoryRows,
                        c
                    );
                    clock.Lap("history");
                },
                clock,
                ct
            );
            // The node must see the history it is measured with: its own listing shows the last row written.
            await network.Nodes[name].Get<IHistoryListing>().ConfirmHistoryAsync(written!.Check, ct);
            // Until a payment succeeds again: the node's own (its flow), or, for a payee's history, one to it.
            var (from, to) = payeeHistory ? (payer!, name) : (name, outOf);
            using (progress.Begin($"{name}: restarted; waiting until {from} pays {to}"))
            {
                await network.WaitSyncedAsync(ct);
                await network.Waits.UntilAsync(
                    $"{from} to pay {to} after {name}'s restart",
                    async c =>
                    {
                        await PayAsync(from, to, history.SeedMsat, c);
                        return WaitState.Met();
                    },
                    ct
                );
            }
            clock.Lap($"{SetupStep.RestartPrefix} pay");
            progress.Info(
                $"{name}: a history of {spec.HistoryRows:N0} {historyOf} ({written!.Rows:N0} written, the rest its own), restarted"
            );
        }
    }

    /// <summary>
    /// Gives the stopped node its rows: copied from the snapshot of its build, history and size when one is usable,
    /// else written from its own records and kept as that snapshot for the next topologies (and runs).
    /// </summary>
    private async Task<HistoryWritten> WriteAsync(
        INodeHistory history,
        string image,
        string node,
        string historyOf,
        long rows,
        CancellationToken ct
    )
    {
        var directory = network.Layout.NodeDirectory(node);
        if (snapshots is null || history.Snapshots is not { } kept)
        {
            if (snapshots is not null && snapshots.SaidUnkept.TryAdd($"{history.GetType().Name} {historyOf}", true))
            {
                progress.Info(
                    $"{node}: its history of {historyOf} is written afresh in every topology: its kind keeps no snapshots of it (a copy would save a third of the writing at most: see docs/large-nodes.md#lnds-histories)"
                );
            }
            return await history.WriteAsync(new HistoryStore(directory, network.Host.DatabaseOf(node)), rows, ct);
        }
        var (key, file) = await snapshots.ForAsync(image, historyOf, rows, ct);
        var names = network.Nodes.ToDictionary(n => n.Value.NodeId.ToLowerInvariant(), n => n.Key);
        var problem = await kept.ProblemAsync(file, key, ct);
        if (problem is null)
        {
            if (await kept.ApplyAsync(directory, file, names, ct) is { } copied)
            {
                Record(new SnapshotUse(node, key, file, "used", new FileInfo(file).Length));
                return new HistoryWritten(copied.Rows, history.Listing(copied.LastIndex));
            }
            problem = "its channels are not this topology's";
        }
        var marks = await kept.MarkAsync(directory, ct);
        var written = await history.WriteAsync(directory, rows, ct);
        await kept.SaveAsync(directory, marks, names, file, key, ct);
        var made = problem == LightningdSnapshotProblems.None;
        Record(
            new SnapshotUse(node, key, file, made ? "made" : "remade", new FileInfo(file).Length, made ? null : problem)
        );
        return written;
    }

    private void Record(SnapshotUse use)
    {
        snapshots!.Uses.Enqueue(use);
        var (files, bytes) = HistorySnapshotStore.DiskUse(snapshots.Directory);
        progress.Info(
            FormattableString.Invariant(
                $"{use.Node}: history {(use.How == "used" ? "copied from" : "kept as")} snapshot {Path.GetFileName(use.File)} ({use.Bytes / 1e6:0.#} MB{(use.Why is null ? "" : $"; the one there was not used: {use.Why}")}); snapshots in {snapshots.Directory}: {files}, {bytes / 1e6:0.#} MB"
            )
        );
    }

    /// <summary>One setup payment: an invoice on the payee, paid by the payer (a failure throws: the setup cannot go on).</summary>
    private async Task PayAsync(string payer, string payee, long amountMsat, CancellationToken ct)
    {
        var tag = new PaymentTag(-Interlocked.Increment(ref setupId), InSetup: true);
        var invoice = await network
            .Nodes[payee]
            .CreateInvoiceAsync(
                amountMsat,
                $"lnbench-history-{-tag.PaymentId}-{Guid.NewGuid():N}",
                "lnbench: a payment for the history",
                tag,
                ct
            );
        await network.Nodes[payer].PayAsync(invoice, tag, ct);
    }

    /// <summary>Until no HTLC is left on the node's channels (its records of the payments are complete).</summary>
    private Task SettledAsync(string node, CancellationToken ct) =>
        LocalBalances.SettledAsync(network.Nodes[node], network.Waits.UntilAsync, ct);
}
