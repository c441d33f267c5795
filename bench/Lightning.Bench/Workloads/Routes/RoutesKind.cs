using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Routes;

/// <summary>
/// Route queries into the mainnet graph (MainnetGraph with --graph): each operation asks the payer, which holds the
/// graph, for routes to one destination of the graph at one amount (Core Lightning: askrene's getroutes with xpay's
/// layers and a 0.5 % fee budget, as its tests/test_askrene.py::test_real_data asks them). Routes found, or the
/// node's reason none fits, are both answers (the pathfinder did its work); anything else is an error.
/// </summary>
internal sealed class RoutesKind : IWorkloadKind
{
    public const string WorkloadName = "routes";

    /// <summary>The fee budget of a query: 0.5 % of its amount, test_real_data's.</summary>
    public const int MaxFeeDivisor = 200;

    public string Name => WorkloadName;

    public string Noun => "query";

    public string Description =>
        "the payer, given the mainnet graph (MainnetGraph --graph), is asked routes to the graph's top nodes and a seeded sample of the others at 1,000 to 1,000,000 sat (Core Lightning: getroutes); routes found and a reason none fits are both answers";

    public string MethodOf(PaymentCalls calls) => "getroutes";

    public string? Refusal(TopologySpec topology) =>
        topology.Flows.Any(f => topology.Node(f.Payer).GraphPercent > 0)
            ? null
            : "routes asks routes into the mainnet graph: run it on MainnetGraph with --graph PATH";

    /// <summary>Routes asked of a node given the graph (the graph itself is --graph's need).</summary>
    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.RouteQueries];

    public IWorkload Create(WorkloadSetup setup) =>
        new RoutesWorkload(
            setup,
            setup.Routes ?? throw new InvalidOperationException("the routes workload runs on a topology with a graph")
        );
}
