using System.Text.Json.Nodes;
using Lightning.Bench.Network;
using Lightning.Bench.Run;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>Gives every channel funder on-chain coins: one transaction, one block, then waits until each wallet sees them.</summary>
public sealed class WalletFunder(LightningNetwork network, RunProgress progress)
{
    public async Task FundAsync(IReadOnlyList<string> funders, decimal btcEach, CancellationToken ct = default)
    {
        if (funders.Count == 0)
        {
            return;
        }
        using var step = progress.Begin($"funding {string.Join(", ", funders)} with {btcEach} BTC each");
        var addresses = new Dictionary<string, decimal>();
        foreach (var name in funders)
        {
            var address = await network.Nodes[name].CallAsync("newaddr", new JsonObject { ["addresstype"] = "bech32" }, ct);
            addresses[address.GetProperty("bech32").GetString()!] = btcEach;
        }
        await network.Miner.SendManyAsync(addresses, ct);
        await network.Miner.MineAsync(1, ct);
        await network.WaitSyncedAsync(ct);
        await Task.WhenAll(funders.Select(name => network.GuardedWaitAsync($"{name} to see its confirmed funds", async c =>
        {
            var funds = await network.Nodes[name].CallAsync("listfunds", ct: c);
            var confirmed = funds.GetProperty("outputs").EnumerateArray()
                .Count(o => o.GetProperty("status").GetString() == "confirmed");
            return confirmed > 0 ? WaitState.Met() : WaitState.NotYet($"{confirmed} confirmed outputs");
        }, ct)));
    }
}
