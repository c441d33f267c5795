using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Channels;

/// <summary>
/// The payer lists its channels (Core Lightning: listpeerchannels; LND: ListChannels), Concurrency calls at once: the
/// read an operator's tools and dashboards make all day, whose cost grows with a node's channels and HTLCs. It changes
/// nothing, so every invocation finds the node as the last left it.
/// </summary>
internal sealed class ChannelsKind : IWorkloadKind
{
    public string Name => "list-channels";

    public string Noun => "call";

    public string Description =>
        "the payer lists its channels with their peers, balances and HTLCs (Core Lightning: listpeerchannels; LND: ListChannels), Concurrency calls at once; it only reads";

    public string MethodOf(PaymentCalls calls) => "list channels";

    public string? Refusal(TopologySpec topology) => null;

    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.ChannelListing];

    /// <summary>Each operation is one listing on a flow's payer; nothing is made ahead.</summary>
    public IWorkload Create(WorkloadSetup setup) =>
        new OneCallWorkload(
            setup,
            (flow, tag, ct) => setup.Nodes[flow.Payer].Get<IChannelListing>().ListChannelsAsync(tag, ct),
            toPayee: false
        );
}
