using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.NodeKinds;

/// <summary>What a node holds on its side of its usable channels, and whether any payment is still moving on them.</summary>
/// <param name="ByPeerMsat">By peer (public key), in msat; peers without a usable channel are absent.</param>
/// <param name="HtlcsInFlight">HTLCs on those channels not yet removed: while any is, a balance can still change (a node
/// can answer that a payment succeeded before its HTLC has left the channel).</param>
internal sealed record LocalBalances(IReadOnlyDictionary<string, long> ByPeerMsat, int HtlcsInFlight)
{
    /// <summary>
    /// A node's balances once no HTLC is left on its channels (its payments' records are then complete), waited for with
    /// <paramref name="until"/>: the caller's wait (its timeout, and what aborts it).
    /// </summary>
    public static async Task<LocalBalances> SettledAsync(
        ILightningNode node,
        Func<string, Func<CancellationToken, Task<WaitState>>, CancellationToken, Task> until,
        CancellationToken ct
    )
    {
        LocalBalances? settled = null;
        await until(
            $"{node.Name}'s channels without HTLCs",
            async c =>
            {
                var balances = await node.Get<IChannelBalances>().GetLocalBalancesAsync(c);
                settled = balances.HtlcsInFlight == 0 ? balances : null;
                return settled is null
                    ? WaitState.NotYet($"{balances.HtlcsInFlight} HTLC(s) on them")
                    : WaitState.Met();
            },
            ct
        );
        return settled!;
    }
}
