using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>Alice pays Bob through Carol 1 … Carol N: every payment crosses CarolsCount + 1 channels, routed from gossip.</summary>
public class AlicePaysBobViaCarols : ScenarioBenchmark
{
    [ParamsSource(nameof(CarolsValues))]
    public int CarolsCount { get; set; }

    public static IEnumerable<int> CarolsValues => Run.Sweep(nameof(CarolsCount));

    protected override IReadOnlyDictionary<string, object> ScenarioParameters =>
        new Dictionary<string, object> { [nameof(CarolsCount)] = CarolsCount };

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage, CarolsCount);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage, int carols)
    {
        var chain = new[] { "alice" }
            .Concat(Enumerable.Range(1, carols).Select(i => $"carol-{i}"))
            .Append("bob")
            .ToList();
        return new TopologySpec(
            bitcoindImage,
            chain.Select(n => build.Node(n)).ToList(),
            chain.Zip(chain.Skip(1), (from, to) => new ChannelSpec(from, to, AlicePaysBob.ChannelCapacitySat)).ToList(),
            [new PaymentFlow("alice", "bob")]
        );
    }
}
