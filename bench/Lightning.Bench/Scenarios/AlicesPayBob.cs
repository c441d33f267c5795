using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>AliceCount Alices, each with a channel to Bob, pay Bob at once: an invocation is AliceCount × Concurrency payments.</summary>
public class AlicesPayBob : ScenarioBenchmark
{
    [ParamsSource(nameof(AliceValues))]
    public int AliceCount { get; set; }

    public static IEnumerable<int> AliceValues => Run.Sweep(nameof(AliceCount));

    protected override IReadOnlyDictionary<string, object> ScenarioParameters =>
        new Dictionary<string, object> { [nameof(AliceCount)] = AliceCount };

    protected override int PaymentsPerInvocation => AliceCount * Concurrency;

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage, AliceCount);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage, int alices)
    {
        var payers = Enumerable.Range(1, alices).Select(i => $"alice-{i}").ToList();
        return new TopologySpec(
            bitcoindImage,
            payers.Append("bob").Select(n => build.Node(n)).ToList(),
            payers.Select(a => new ChannelSpec(a, "bob", AlicePaysBob.ChannelCapacitySat)).ToList(),
            payers.Select(a => new PaymentFlow(a, "bob")).ToList()
        );
    }
}
