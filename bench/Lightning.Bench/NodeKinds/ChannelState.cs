namespace Lightning.Bench.NodeKinds;

/// <summary>A channel's state in the harness's terms; each kind maps its own states onto these.</summary>
internal enum ChannelState
{
    /// <summary>Funding not yet deep enough, or the handshake still running.</summary>
    Opening,

    /// <summary>Usable for payments: open, and its peer connected (a channel whose peer is away counts as <see cref="Opening"/>).</summary>
    Normal,

    Closing,

    Closed,
}
