namespace Lightning.Bench.Topology;

/// <summary>A channel funded by <see cref="From"/> towards <see cref="To"/>: its capacity starts on the funder's side, but for what it pushes to the other.</summary>
internal sealed record ChannelSpec(string From, string To, long CapacitySat)
{
    /// <summary>What the funder gives the other side at the open (msat), so both ends can pay; 0 by default.</summary>
    public long PushMsat { get; init; }
}
