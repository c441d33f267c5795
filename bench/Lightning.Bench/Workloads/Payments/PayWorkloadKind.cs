using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Payments;

/// <summary>The default workload: an invoice on the payee and a payment of it on the payer, which succeeds.</summary>
internal sealed class PayWorkloadKind : IWorkloadKind
{
    public const string WorkloadName = Results.CellId.DefaultWorkload;

    public string Name => WorkloadName;

    public string Noun => "payment";

    public string Description => "an invoice on the payee, paid by the payer (each payment expected to succeed)";

    public string MethodOf(PaymentCalls calls) => calls.Description;

    public string? Refusal(TopologySpec topology) => null;

    public IWorkload Create(WorkloadSetup setup) => new PaymentDriver(setup);
}
