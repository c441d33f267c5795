using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Keysend;

/// <summary>
/// Payments without an invoice (keysend: the payer makes the preimage and sends it in the onion), as SimLN drives a
/// network: beside invoice + pay, it tells the payee's invoice cost apart from the payment path.
/// </summary>
internal sealed class KeysendKind : IWorkloadKind
{
    public const string WorkloadName = "keysend";

    public string Name => WorkloadName;

    public string Noun => "payment";

    public string Description =>
        "the payer pays the payee without an invoice (keysend), each payment expected to succeed";

    public string MethodOf(PaymentCalls calls) => calls.Keysend;

    public string? Refusal(TopologySpec topology) => null;

    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.Keysend];

    /// <summary>Each operation is one keysend along a flow; nothing is made ahead.</summary>
    public IWorkload Create(WorkloadSetup setup) =>
        new OneCallWorkload(
            setup,
            (flow, tag, ct) =>
                setup
                    .Nodes[flow.Payer]
                    .Get<IKeysendPayer>()
                    .KeysendAsync(setup.Nodes[flow.Payee], setup.AmountMsat, tag, ct),
            toPayee: true
        );
}
