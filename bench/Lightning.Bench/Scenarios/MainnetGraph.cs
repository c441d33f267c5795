using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// The payer holds the public network: alice → carol → bob, where alice is given GraphPercent % of the mainnet graph
/// (--graph) in her gossip store before the measured window, with the graph's node --graph-node (default 2134, as Core
/// Lightning's tests/test_askrene.py::test_real_data maps it) being carol, so routes into the graph leave through a real
/// channel. Route queries into the graph (--workload routes), or payments to bob (pay) found over the whole graph.
/// </summary>
public class MainnetGraph : ScenarioBenchmark
{
    public const string Payer = "alice";

    /// <summary>The real node the graph's mapped index becomes: the payer's peer.</summary>
    public const string Mapped = "carol";

    [ParamsSource(nameof(GraphPercentValues))]
    public int GraphPercent { get; set; }

    public static IEnumerable<int> GraphPercentValues => Run.Sweep(nameof(GraphPercent));

    protected override IReadOnlyDictionary<string, object> ScenarioParameters =>
        new Dictionary<string, object> { [nameof(GraphPercent)] = GraphPercent };

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage, GraphPercent);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage, int graphPercent) =>
        new(
            bitcoindImage,
            [build.Node(Payer) with { GraphPercent = graphPercent }, build.Node(Mapped), build.Node("bob")],
            [
                new ChannelSpec(Payer, Mapped, AlicePaysBob.ChannelCapacitySat),
                new ChannelSpec(Mapped, "bob", AlicePaysBob.ChannelCapacitySat),
            ],
            [new PaymentFlow(Payer, "bob")]
        );
}
