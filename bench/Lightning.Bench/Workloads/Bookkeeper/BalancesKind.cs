using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Bookkeeper;

/// <summary>
/// The payer asks its own accounting of its balances (Core Lightning's bookkeeper: bkpr-listbalances), the call Core
/// Lightning's maintainers time on a node with a large history (PR 8677): the first call after a history is written
/// digests every coin move in it, the next ones only what is new. With LargeNode's --history, one measured invocation
/// per topology (--iterations 1 --warmups 0) times the digest, and --probe shows how long the node stops answering.
/// </summary>
internal sealed class BalancesKind : IWorkloadKind
{
    public const string WorkloadName = "balances";

    public string Name => WorkloadName;

    public string Noun => "call";

    public string Description =>
        "the payer asks its own accounting of its balances (Core Lightning: bkpr-listbalances), which digests every coin move not yet digested (with LargeNode's --history, the first call digests the history)";

    public string MethodOf(PaymentCalls calls) => calls.Balances;

    public string? Refusal(TopologySpec topology) => null;

    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.Bookkeeper];

    /// <summary>Each operation is one call on a flow's payer; nothing is made ahead.</summary>
    public IWorkload Create(WorkloadSetup setup) =>
        new OneCallWorkload(
            setup,
            (flow, tag, ct) => setup.Nodes[flow.Payer].Get<IBookkeeper>().ListBalancesAsync(tag, ct),
            toPayee: false
        );
}
