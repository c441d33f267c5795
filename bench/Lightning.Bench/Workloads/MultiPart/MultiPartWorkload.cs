using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Waiting;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Workloads.MultiPart;

/// <summary>
/// See <see cref="MultiPartKind"/>. A payment larger than one channel moves most of the paths' liquidity to the payee,
/// so before each invocation, outside its timing, the payee pays the payer back what each of the payer's channels lost,
/// over that channel (the payment's last hop fixed to its peer): every invocation starts from the balances the first
/// started from, channel by channel. (One payment back of the whole amount can come back over one path, as LND sends
/// it when one path carries it: the next payments would then need no split.)
/// </summary>
internal sealed class MultiPartWorkload(WorkloadSetup setup) : IWorkload
{
    /// <summary>Below this a channel's loss is left (what LND reports is in sat).</summary>
    private const long SmallestPaybackMsat = 1_000;

    /// <summary>
    /// How long a payer's channels may take to be rid of a payment's HTLCs: a failed multi-part payment can leave a part
    /// the payee holds until its MPP timeout (Core Lightning 60 s, LND 120 s) fails it back.
    /// </summary>
    private static readonly TimeSpan SettleTimeout = TimeSpan.FromSeconds(200);

    private readonly PaymentDriver payments = new(setup);
    private readonly Dictionary<string, LocalBalances> startingBalances = new();
    private long backId;

    public async Task PrepareAsync(int operations, CancellationToken ct = default)
    {
        await payments.PrepareAsync(operations, ct);
        foreach (var payer in setup.Flows.Select(f => f.Payer).Distinct())
        {
            startingBalances[payer] = await SettledBalancesAsync(setup.Nodes[payer], ct);
        }
    }

    public async Task BeforeInvocationAsync(int operations, CancellationToken ct = default)
    {
        foreach (var flow in setup.Flows.DistinctBy(f => f.Payer))
        {
            var payer = setup.Nodes[flow.Payer];
            var payee = setup.Nodes[flow.Payee];
            var start = startingBalances[flow.Payer].ByPeerMsat;
            var now = (await SettledBalancesAsync(payer, ct)).ByPeerMsat;
            var peers = setup.Nodes.Values.Where(n => start.ContainsKey(n.NodeId)).ToList();
            foreach (var peer in peers)
            {
                var lostMsat = start[peer.NodeId] - now.GetValueOrDefault(peer.NodeId);
                if (lostMsat < SmallestPaybackMsat)
                {
                    continue;
                }
                // Made and paid as setup, under ids of their own: no operation of the workload.
                var tag = new PaymentTag(-Interlocked.Increment(ref backId), InSetup: true);
                var invoice = await payer.CreateInvoiceAsync(
                    lostMsat,
                    $"{setup.LabelPrefix}-back-{-tag.PaymentId}",
                    $"lnbench: {peer.Name}'s liquidity back",
                    tag,
                    ct
                );
                await payee
                    .Get<IPathChoice>()
                    .PayThroughAsync(invoice, peer, [.. peers.Where(p => p != peer && p != payee)], tag, ct);
            }
            // The next payment starts from channels the payments back have left.
            await SettledBalancesAsync(payer, ct);
        }
    }

    public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
        payments.RunAsync(invocation, operations, ct);

    /// <summary>Its balances once no HTLC is left on its channels (a payment reported settled may still be on them).</summary>
    private static Task<LocalBalances> SettledBalancesAsync(ILightningNode node, CancellationToken ct) =>
        LocalBalances.SettledAsync(
            node,
            (condition, check, c) => Wait.UntilAsync(condition, check, SettleTimeout, c),
            ct
        );
}
