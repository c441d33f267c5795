using System.Text.Json.Nodes;
using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.Run;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>Connects peers, funds every channel, confirms them in one batch of blocks and waits until they are usable and routable.</summary>
public sealed class ChannelOpener(LightningNetwork network, RunProgress progress)
{
    private const int AnnouncementDepth = 6;

    public async Task OpenAsync(IReadOnlyList<ChannelSpec> channels, CancellationToken ct = default)
    {
        if (channels.Count == 0)
        {
            return;
        }
        using (progress.Begin($"opening {channels.Count} channel(s): {string.Join(", ", channels.Select(c => $"{c.From}->{c.To}"))}"))
        {
            // A funder's channels are opened one after another (they spend the same wallet); funders work in parallel.
            await Task.WhenAll(channels.GroupBy(c => c.From).Select(async group =>
            {
                foreach (var channel in group)
                {
                    await OpenOneAsync(channel, ct);
                }
            }));
            // Six blocks: enough for the channels to be usable and announced, so multi-hop routes appear in gossip.
            await network.Miner.MineAsync(AnnouncementDepth, ct);
            await network.WaitSyncedAsync(ct);
            await Task.WhenAll(channels.Select(c => WaitNormalAsync(c, ct)));
        }
    }

    public async Task WaitRoutesAsync(IReadOnlyList<PaymentFlow> flows, long amountMsat, CancellationToken ct = default)
    {
        using var step = progress.Begin($"waiting for routes: {string.Join(", ", flows.Select(f => $"{f.Payer}->{f.Payee}"))}");
        await Task.WhenAll(flows.Distinct().Select(flow =>
        {
            var payer = network.Nodes[flow.Payer];
            var payee = network.Nodes[flow.Payee];
            return network.GuardedWaitAsync($"a route {flow.Payer} -> {flow.Payee} for {amountMsat} msat", async c =>
            {
                // askrene's getroutes is what xpay itself asks (getroute is deprecated since v26.06).
                var routes = await payer.CallAsync("getroutes", new JsonObject
                {
                    ["source"] = payer.NodeId,
                    ["destination"] = payee.NodeId,
                    ["amount_msat"] = amountMsat,
                    ["layers"] = new JsonArray("auto.localchans", "auto.sourcefree"),
                    ["maxfee_msat"] = amountMsat,
                    ["final_cltv"] = 18,
                }, c);
                return WaitState.Met($"{routes.GetProperty("routes").GetArrayLength()} routes");
            }, ct);
        }));
    }

    private async Task OpenOneAsync(ChannelSpec channel, CancellationToken ct)
    {
        var from = network.Nodes[channel.From];
        var to = network.Nodes[channel.To];
        await from.CallAsync("connect", new JsonObject
        {
            ["id"] = to.NodeId,
            ["host"] = to.Name,
            ["port"] = ComposeGenerator.LightningPort,
        }, ct);
        await from.CallAsync("fundchannel", new JsonObject
        {
            ["id"] = to.NodeId,
            ["amount"] = channel.CapacitySat,
            ["announce"] = true,
        }, ct);
    }

    private Task WaitNormalAsync(ChannelSpec channel, CancellationToken ct) =>
        Task.WhenAll(new[] { (channel.From, channel.To), (channel.To, channel.From) }.Select(pair =>
        {
            var (self, peer) = pair;
            var peerId = network.Nodes[peer].NodeId;
            return network.GuardedWaitAsync($"channel {channel.From}->{channel.To} to be CHANNELD_NORMAL on {self}", async c =>
            {
                var result = await network.Nodes[self].CallAsync("listpeerchannels", new JsonObject { ["id"] = peerId }, c);
                var states = result.GetProperty("channels").EnumerateArray().Select(ch => ch.GetProperty("state").GetString()).ToList();
                return states.Contains("CHANNELD_NORMAL")
                    ? WaitState.Met()
                    : WaitState.NotYet(states.Count == 0 ? "no channel" : string.Join(", ", states));
            }, ct);
        }));
}
