using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// Alice pays Bob over two paths, through Carol 1 and through Carol 2: each channel of <see cref="PathCapacitySat"/>, half
/// of it given to its far side at the open, so each path carries 1,000,000 sat either way and a payment larger than one
/// path's splits over both (--workload mpp), and can be paid back.
/// </summary>
public class AlicePaysBobOverTwoPaths : ScenarioBenchmark
{
    /// <summary>Each channel's capacity: small, so a multi-part payment needs no large amounts.</summary>
    public const long PathCapacitySat = 2_000_000;

    /// <summary>What each channel's funder gives the far side at the open: each path then carries this much either way.</summary>
    public const long PushMsat = PathCapacitySat * 1000 / 2;

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage);

    internal static TopologySpec TopologyFor(BuildSpec build, string bitcoindImage) =>
        new(
            bitcoindImage,
            [build.Node("alice"), build.Node("carol-1"), build.Node("carol-2"), build.Node("bob")],
            [
                new ChannelSpec("alice", "carol-1", PathCapacitySat) { PushMsat = PushMsat },
                new ChannelSpec("carol-1", "bob", PathCapacitySat) { PushMsat = PushMsat },
                new ChannelSpec("alice", "carol-2", PathCapacitySat) { PushMsat = PushMsat },
                new ChannelSpec("carol-2", "bob", PathCapacitySat) { PushMsat = PushMsat },
            ],
            [new PaymentFlow("alice", "bob")]
        );
}
