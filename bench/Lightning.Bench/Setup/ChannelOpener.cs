using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>
/// Connects peers, funds every channel, confirms them in one batch of blocks and waits until they are usable and routable.
/// The channels of funders that can open channels paid for from outside (<see cref="IExternalChannelFunding"/>) are
/// paid by one transaction of the miner's; every other funder pays from its wallet (funded first by <see cref="WalletFunder"/>).
/// </summary>
internal sealed class ChannelOpener(LightningNetwork network, RunProgress progress)
{
    private const int AnnouncementDepth = 6;

    /// <summary>The funders that pay for their channels from their wallets (the miner pays for the others' directly).</summary>
    public IReadOnlyList<string> WalletFunders(IReadOnlyList<ChannelSpec> channels) =>
        [.. channels.Select(c => c.From).Distinct().Where(name => network.Nodes[name] is not IExternalChannelFunding)];

    public async Task OpenAsync(IReadOnlyList<ChannelSpec> channels, CancellationToken ct = default)
    {
        if (channels.Count == 0)
        {
            return;
        }
        using (
            progress.Begin(
                $"opening {channels.Count} channel(s): {string.Join(", ", channels.Select(c => $"{c.From}->{c.To}"))}"
            )
        )
        {
            // A pair of nodes with several channels opens them in rounds, the k-th of each pair in round k: a node
            // negotiates one channel with a peer at a time, and a wallet's change must confirm before it funds again.
            var rounds = Rounds(channels);
            for (var round = 0; round < rounds.Count; round++)
            {
                if (round > 0)
                {
                    await network.Miner.MineAsync(1, ct);
                    await network.WaitSyncedAsync(ct);
                }
                var byMiner = rounds[round].Where(c => network.Nodes[c.From] is IExternalChannelFunding).ToList();
                await Task.WhenAll(
                    byMiner.Count > 0 ? OpenFundedByMinerAsync(byMiner, ct) : Task.CompletedTask,
                    ByFunderAsync(
                        rounds[round].Except(byMiner).ToList(),
                        async (channel, from, to) =>
                        {
                            await from.ConnectPeerAsync(to, ct);
                            await from.OpenChannelAsync(to, channel.CapacitySat, channel.PushMsat, ct);
                        }
                    )
                );
            }
            // Six blocks: enough for the channels to be usable and announced, so multi-hop routes appear in gossip.
            await network.Miner.MineAsync(AnnouncementDepth, ct);
            await network.WaitSyncedAsync(ct);
            await Task.WhenAll(channels.Distinct().Select(c => WaitNormalAsync(c, channels, ct)));
        }
    }

    /// <summary>
    /// A topology's channels in opening rounds: the k-th channel of each pair of nodes in round k (one round when every
    /// pair has one), so no round holds two channels between one pair (nor two equal channels).
    /// </summary>
    internal static IReadOnlyList<IReadOnlyList<ChannelSpec>> Rounds(IReadOnlyList<ChannelSpec> channels)
    {
        var seen = new Dictionary<(string, string), int>();
        var numbered = channels
            .Select(c =>
            {
                var pair = string.CompareOrdinal(c.From, c.To) < 0 ? (c.From, c.To) : (c.To, c.From);
                var round = seen.GetValueOrDefault(pair);
                seen[pair] = round + 1;
                return (Round: round, Channel: c);
            })
            .ToList();
        return numbered
            .GroupBy(n => n.Round)
            .OrderBy(g => g.Key)
            .Select(g => (IReadOnlyList<ChannelSpec>)g.Select(n => n.Channel).ToList())
            .ToList();
    }

    /// <summary>
    /// Every channel negotiated (a funder's one after another, funders in parallel), then one signed transaction of the
    /// miner's pays every funding address; each funder sees it before it is broadcast, as the protocol requires.
    /// </summary>
    private async Task OpenFundedByMinerAsync(IReadOnlyList<ChannelSpec> channels, CancellationToken ct)
    {
        var addresses = new Dictionary<ChannelSpec, string>();
        await ByFunderAsync(
            channels,
            async (channel, from, to) =>
            {
                await from.ConnectPeerAsync(to, ct);
                var address = await ((IExternalChannelFunding)from).StartExternalChannelAsync(
                    to,
                    channel.CapacitySat,
                    channel.PushMsat,
                    ct
                );
                lock (addresses)
                {
                    addresses[channel] = address;
                }
            }
        );
        var (psbt, transaction) = await network.Miner.CreateFundingAsync(
            addresses.ToDictionary(a => a.Value, a => a.Key.CapacitySat),
            ct
        );
        await ByFunderAsync(
            channels,
            (_, from, to) => ((IExternalChannelFunding)from).CompleteExternalChannelAsync(to, psbt, ct)
        );
        await network.Miner.BroadcastAsync(transaction, ct);
    }

    /// <summary>A step for every channel: a funder's channels one after another (they share its wallet and state), funders in parallel.</summary>
    private Task ByFunderAsync(
        IReadOnlyList<ChannelSpec> channels,
        Func<ChannelSpec, ILightningNode, ILightningNode, Task> step
    ) =>
        Task.WhenAll(
            channels
                .GroupBy(c => c.From)
                .Select(async group =>
                {
                    foreach (var channel in group)
                    {
                        await step(channel, network.Nodes[channel.From], network.Nodes[channel.To]);
                    }
                })
        );

    public async Task WaitRoutesAsync(IReadOnlyList<PaymentFlow> flows, long amountMsat, CancellationToken ct = default)
    {
        using var step = progress.Begin(
            $"waiting for routes: {string.Join(", ", flows.Select(f => $"{f.Payer}->{f.Payee}"))}"
        );
        await Task.WhenAll(
            flows
                .Distinct()
                .Select(flow =>
                {
                    var payer = network.Nodes[flow.Payer];
                    var payee = network.Nodes[flow.Payee];
                    return network.Waits.UntilAsync(
                        $"a route {flow.Payer} -> {flow.Payee} for {amountMsat} msat",
                        async c =>
                        {
                            var routes = await payer.CountRoutesAsync(payee, amountMsat, c);
                            return routes > 0 ? WaitState.Met($"{routes} routes") : WaitState.NotYet("no route yet");
                        },
                        ct
                    );
                })
        );
    }

    /// <summary>Every channel of <paramref name="node"/> usable again from both ends (after its restart: reconnected, reestablished).</summary>
    public Task WaitUsableAsync(TopologySpec topology, string node, CancellationToken ct) =>
        Task.WhenAll(
            topology
                .Channels.Where(c => c.From == node || c.To == node)
                .Distinct()
                .Select(c => WaitNormalAsync(c, topology.Channels, ct))
        );

    /// <summary>Both ends see the channel as usable: as many of their channels normal as <paramref name="all"/> has between them.</summary>
    private Task WaitNormalAsync(ChannelSpec channel, IReadOnlyList<ChannelSpec> all, CancellationToken ct)
    {
        var between = all.Count(c =>
            (c.From, c.To) == (channel.From, channel.To) || (c.From, c.To) == (channel.To, channel.From)
        );
        var what =
            between == 1
                ? $"channel {channel.From}->{channel.To}"
                : $"{between} channels {channel.From}<->{channel.To}";
        return Task.WhenAll(
            new[] { (channel.From, channel.To), (channel.To, channel.From) }.Select(pair =>
            {
                var (self, peer) = pair;
                return network.Waits.UntilAsync(
                    $"{what} to be normal on {self}",
                    async c =>
                    {
                        var states = await network.Nodes[self].GetChannelStatesAsync(network.Nodes[peer], c);
                        var normal = states.Count(s => s == ChannelState.Normal);
                        return normal >= between
                            ? WaitState.Met()
                            : WaitState.NotYet(
                                states.Count == 0
                                    ? "no channel"
                                    : $"{normal} of {between} normal: {string.Join(", ", states)}"
                            );
                    },
                    ct
                );
            })
        );
    }
}
