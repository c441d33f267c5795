namespace Lightning.Bench.NodeKinds;

/// <summary>What a node holds on its side of its usable channels, and whether any payment is still moving on them.</summary>
/// <param name="ByPeerMsat">By peer (public key), in msat; peers without a usable channel are absent.</param>
/// <param name="HtlcsInFlight">HTLCs on those channels not yet removed: while any is, a balance can still change (a node
/// can answer that a payment succeeded before its HTLC has left the channel).</param>
internal sealed record LocalBalances(IReadOnlyDictionary<string, long> ByPeerMsat, int HtlcsInFlight);
