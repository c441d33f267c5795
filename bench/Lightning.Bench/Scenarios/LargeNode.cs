using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A node with a history: alice → carol → bob, where carol (the node measured) pays bob, and before the measured window
/// is given HistoryRows rows of past activity (its kind's history: Core Lightning's channel moves), then restarted, as
/// Core Lightning's tests/benchmark.py::test_generate_coinmoves does with its middle node. Setup first makes carol
/// forward a payment (alice → bob), pay one (carol → bob) and receive one (alice → carol), whose records are what the
/// history copies. With a history of forwards, alice pays bob through carol instead: every payment one of carol's forwards.
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

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage, HistoryRows, routed: Run.HistoryOf == NodeKinds.HistoryKinds.Forwards);

    /// <param name="routed">Whether carol routes the payments (alice pays bob through her: each one of her forwards, for a history of forwards) instead of making them.</param>
    internal static TopologySpec TopologyFor(
        BuildSpec build,
        string bitcoindImage,
        long historyRows,
        bool routed = false
    ) =>
        new(
            bitcoindImage,
            [build.Node("alice"), build.Node(Measured) with { HistoryRows = historyRows }, build.Node("bob")],
            [
                new ChannelSpec("alice", Measured, AlicePaysBob.ChannelCapacitySat),
                new ChannelSpec(Measured, "bob", AlicePaysBob.ChannelCapacitySat),
            ],
            [routed ? new PaymentFlow("alice", "bob") : new PaymentFlow(Measured, "bob")]
        );
}
