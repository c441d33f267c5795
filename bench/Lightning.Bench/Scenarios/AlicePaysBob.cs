using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>Alice pays Bob over one direct channel; each invocation starts Concurrency payments at once.</summary>
public class AlicePaysBob : ScenarioBenchmark
{
    public const long ChannelCapacitySat = 10_000_000;

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage) =>
        new(
            bitcoindImage,
            [build.Node("alice"), build.Node("bob")],
            [new ChannelSpec("alice", "bob", ChannelCapacitySat)],
            [new PaymentFlow("alice", "bob")]
        );
}
