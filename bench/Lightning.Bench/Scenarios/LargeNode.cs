using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A node with a history: alice → carol → bob, where carol (the node measured) pays bob, and before the measured window
/// is given HistoryRows rows of past activity (its kind's history: Core Lightning's channel moves), then restarted, as
/// Core Lightning's tests/benchmark.py::test_generate_coinmoves does with its middle node. Setup first makes carol
/// forward a payment (alice → bob), pay one (carol → bob) and receive one (alice → carol), whose records are what the
/// history copies.
/// </summary>
public class LargeNode : ScenarioBenchmark
{
    public const string Measured = "carol";

    [ParamsSource(nameof(HistoryValues))]
    public int HistoryRows { get; set; }

    public static IEnumerable<int> HistoryValues => Run.Sweep(nameof(HistoryRows));

    protected override IReadOnlyDictionary<string, object> ScenarioParameters =>
        new Dictionary<string, object> { [nameof(HistoryRows)] = HistoryRows };

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) => TopologyFor(build, bitcoindImage, HistoryRows);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage, long historyRows) => new(
        bitcoindImage,
        [build.Node("alice"), build.Node(Measured) with { HistoryRows = historyRows }, build.Node("bob")],
        [new ChannelSpec("alice", Measured, AlicePaysBob.ChannelCapacitySat), new ChannelSpec(Measured, "bob", AlicePaysBob.ChannelCapacitySat)],
        [new PaymentFlow(Measured, "bob")]);
}
