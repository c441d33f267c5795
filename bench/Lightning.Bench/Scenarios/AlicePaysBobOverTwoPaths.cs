using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// Alice pays Bob over two paths, through Carol 1 and through Carol 2, each channel carrying <see cref="PathCapacitySat"/>:
/// a payment larger than one path splits over both (--workload mpp).
/// </summary>
public class AlicePaysBobOverTwoPaths : ScenarioBenchmark
{
    /// <summary>Each channel's capacity: small, so a multi-part payment needs no large amounts.</summary>
    public const long PathCapacitySat = 1_000_000;

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) => TopologyFor(build, bitcoindImage);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage) => new(
        bitcoindImage,
        [build.Node("alice"), build.Node("carol-1"), build.Node("carol-2"), build.Node("bob")],
        [
            new ChannelSpec("alice", "carol-1", PathCapacitySat), new ChannelSpec("carol-1", "bob", PathCapacitySat),
            new ChannelSpec("alice", "carol-2", PathCapacitySat), new ChannelSpec("carol-2", "bob", PathCapacitySat),
        ],
        [new PaymentFlow("alice", "bob")]);
}
