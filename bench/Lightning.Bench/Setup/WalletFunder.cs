using Lightning.Bench.Network;
using Lightning.Bench.Progress;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Setup;

/// <summary>Gives every channel funder on-chain coins: one transaction, one block, then waits until each wallet sees them.</summary>
internal sealed class WalletFunder(LightningNetwork network, RunProgress progress)
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
            addresses[await network.Nodes[name].NewAddressAsync(ct)] = btcEach;
        }
        await network.Miner.SendManyAsync(addresses, ct);
        await network.Miner.MineAsync(1, ct);
        await network.WaitSyncedAsync(ct);
        await Task.WhenAll(
            funders.Select(name =>
                network.Waits.UntilAsync(
                    $"{name} to see its confirmed funds",
                    async c =>
                    {
                        var balance = await network.Nodes[name].ConfirmedBalanceSatAsync(c);
                        return balance > 0 ? WaitState.Met() : WaitState.NotYet($"{balance} sat confirmed");
                    },
                    ct
                )
            )
        );
    }
}
