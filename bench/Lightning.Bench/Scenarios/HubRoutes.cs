using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A routing hub: PeerCount peers, each with ChannelsPerPeer channels to the hub, half of them payers (alice-1 … alice-N, each
/// funding its channel to the hub) and half payees (bob-1 … bob-N, each channel funded by the hub); alice-i pays bob-i
/// through the hub, all at once, so every payment is a forward of the hub's. An invocation is N × Concurrency payments.
/// </summary>
public class HubRoutes : ScenarioBenchmark
{
    public const string Hub = "hub";

    [ParamsSource(nameof(PeerValues))]
    public int PeerCount { get; set; }

    public static IEnumerable<int> PeerValues => Run.Sweep(nameof(PeerCount));

    [ParamsSource(nameof(ChannelsPerPeerValues))]
    public int ChannelsPerPeer { get; set; }

    public static IEnumerable<int> ChannelsPerPeerValues => Run.Sweep(nameof(ChannelsPerPeer));

    /// <summary>Rows of past activity the hub is given before the measured window (--history; 0: none).</summary>
    [ParamsSource(nameof(HistoryValues))]
    public int HistoryRows { get; set; }

    public static IEnumerable<int> HistoryValues => Run.Sweep(nameof(HistoryRows));

    protected override IReadOnlyDictionary<string, object> ScenarioParameters =>
        new Dictionary<string, object>
        {
            [nameof(PeerCount)] = PeerCount,
            [nameof(ChannelsPerPeer)] = ChannelsPerPeer,
            [nameof(HistoryRows)] = HistoryRows,
        };

    protected override int PaymentsPerInvocation => PeerCount / 2 * Concurrency;

    [Benchmark]
    public Task Invoke() => InvokeAsync();

    private protected override TopologySpec BuildTopology(BuildSpec build, string bitcoindImage) =>
        TopologyFor(build, bitcoindImage, PeerCount, ChannelsPerPeer, HistoryRows);

    internal static TopologySpec TopologyFor(
        BuildSpec build,
        string bitcoindImage,
        int peers,
        int channelsPerPeer = 1,
        long historyRows = 0
    )
    {
        var each = Enumerable.Range(0, channelsPerPeer).ToList();
        var pairs = Enumerable.Range(1, peers / 2).ToList();
        var payers = pairs.Select(i => $"alice-{i}").ToList();
        var payees = pairs.Select(i => $"bob-{i}").ToList();
        return new TopologySpec(
            bitcoindImage,
            [
                build.Node(Hub) with
                {
                    HistoryRows = historyRows,
                },
                .. payers.Select(build.Node),
                .. payees.Select(build.Node),
            ],
            [
                .. payers.SelectMany(a => each.Select(_ => new ChannelSpec(a, Hub, AlicePaysBob.ChannelCapacitySat))),
                .. payees.SelectMany(b => each.Select(_ => new ChannelSpec(Hub, b, AlicePaysBob.ChannelCapacitySat))),
            ],
            [.. pairs.Select(i => new PaymentFlow($"alice-{i}", $"bob-{i}"))]
        );
    }
}
