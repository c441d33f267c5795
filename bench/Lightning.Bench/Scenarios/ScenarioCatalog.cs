namespace Lightning.Bench.Scenarios;

/// <summary>The scenarios users can run by name; adding one is adding a class and an entry here.</summary>
internal static class ScenarioCatalog
{
    /// <summary>The protocol's limit on HTLCs in flight in one direction of a channel (what cln.yml allows on regtest).</summary>
    public const int HtlcLimit = 483;

    /// <summary>
    /// The most payments a payer may start at once: beyond <see cref="HtlcLimit"/>, so what a node does past the limit
    /// (payments that wait or fail, each counted) can be measured.
    /// </summary>
    public const int MaxConcurrency = 1000;

    public static ScenarioParameter Concurrency(params int[] defaults) =>
        new(
            nameof(AlicePaysBob.Concurrency),
            "--concurrency",
            "payments each payer starts at once in each benchmark invocation",
            defaults,
            1,
            MaxConcurrency,
            $"{HtlcLimit} HTLCs can be in flight in each direction of a channel; what is beyond waits or fails, counted"
        );

    public static readonly ScenarioParameter Carols = new(
        nameof(AlicePaysBobViaCarols.CarolsCount),
        "--carols",
        "Carols between Alice and Bob (a payment crosses Carols + 1 channels)",
        [1, 4],
        1,
        10,
        "routes are limited in length"
    );

    public static readonly ScenarioParameter Alices = new(
        nameof(AlicesPayBob.AliceCount),
        "--alices",
        "Alices, each with a channel to Bob, all paying at once",
        [4, 7, 10],
        1,
        20,
        "every node is a container on this machine"
    );

    public static readonly ScenarioParameter Peers = new(
        nameof(HubRoutes.PeerCount),
        "--peers",
        "HubRoutes: the hub's peers (each with --channels-per-peer channels to it), half paying the other half through it",
        [10, 20],
        2,
        60,
        "every node is a container on this machine"
    )
    {
        Even = true,
    };

    public static readonly ScenarioParameter ChannelsPerPeer = new(
        nameof(HubRoutes.ChannelsPerPeer),
        "--channels-per-peer",
        "HubRoutes: channels between the hub and each of its peers (opened in rounds, one transaction a round)",
        [1],
        1,
        10,
        "each channel is another output to fund and another channel for the hub to keep"
    );

    /// <summary>--history: rows of past activity the scenario's measured node is given (LargeNode's carol, HubRoutes's hub).</summary>
    public static ScenarioParameter History(params int[] defaults) =>
        new(
            nameof(LargeNode.HistoryRows),
            "--history",
            "LargeNode and HubRoutes: rows of past activity the measured node (carol; the hub) is given before the measured window",
            defaults,
            0,
            20_000_000,
            "the rows are written into one node's database on this machine"
        );

    /// <summary>LargeNode's history sizes (a history is what it is for).</summary>
    public static readonly ScenarioParameter LargeNodeHistory = History(0, 100_000);

    public static readonly ScenarioParameter GraphPercent = new(
        nameof(MainnetGraph.GraphPercent),
        "--graph-percent",
        "MainnetGraph: the share (%) of the graph's channels the payer is given, taken around the mapped node by a seeded breadth-first search",
        [100],
        1,
        100,
        "a share is of the snapshot's channels"
    );

    public static ScenarioInfo Default { get; } =
        new(
            nameof(AlicePaysBob),
            typeof(AlicePaysBob),
            "Alice pays Bob over one direct channel: an invoice on Bob, paid by Alice.",
            [Concurrency(1, 4, 10)],
            (_, build, bitcoind) => AlicePaysBob.TopologyFor(build, bitcoind)
        );

    public static IReadOnlyList<ScenarioInfo> All { get; } =
    [
        Default,
        new(
            nameof(AlicePaysBobViaCarols),
            typeof(AlicePaysBobViaCarols),
            "Alice pays Bob through a chain Alice -> Carol 1 -> ... -> Carol N -> Bob (routes found in gossip).",
            [Carols, Concurrency(1)],
            (p, build, bitcoind) => AlicePaysBobViaCarols.TopologyFor(build, bitcoind, p[Carols.Name])
        ),
        new(
            nameof(AlicePaysBobOverTwoPaths),
            typeof(AlicePaysBobOverTwoPaths),
            "Alice pays Bob over two paths, through Carol 1 and Carol 2 (each channel 2,000,000 sat, half on each side): a payment above one path's 1,000,000 sat splits over both.",
            [Concurrency(1)],
            (_, build, bitcoind) => AlicePaysBobOverTwoPaths.TopologyFor(build, bitcoind)
        ),
        new(
            nameof(AlicesPayBob),
            typeof(AlicesPayBob),
            "N Alices, each with a channel to one Bob, pay Bob at the same time.",
            [Alices, Concurrency(1)],
            (p, build, bitcoind) => AlicesPayBob.TopologyFor(build, bitcoind, p[Alices.Name])
        ),
        new(
            nameof(HubRoutes),
            typeof(HubRoutes),
            "A routing hub with N peers (--channels-per-peer channels each; --history rows of past activity): N/2 Alices each pay their own Bob through the hub at once (every payment a forward of the hub's).",
            [Peers, ChannelsPerPeer, History(0), Concurrency(1, 4)],
            (p, build, bitcoind) =>
                HubRoutes.TopologyFor(build, bitcoind, p[Peers.Name], p[ChannelsPerPeer.Name], p[LargeNodeHistory.Name])
        ),
        new(
            nameof(LargeNode),
            typeof(LargeNode),
            "alice -> carol -> bob; carol, given a history of N rows (Core Lightning: channel moves) and restarted before the measured window, pays bob.",
            [LargeNodeHistory, Concurrency(1)],
            (p, build, bitcoind) => LargeNode.TopologyFor(build, bitcoind, p[LargeNodeHistory.Name])
        ),
        new(
            nameof(MainnetGraph),
            typeof(MainnetGraph),
            "alice -> carol -> bob; alice is given the mainnet graph (--graph) with its node --graph-node being carol: route queries into it (--workload routes), or payments to bob found over it.",
            [GraphPercent, Concurrency(1, 4)],
            (p, build, bitcoind) => MainnetGraph.TopologyFor(build, bitcoind, p[GraphPercent.Name])
        ),
    ];

    public static IReadOnlyList<ScenarioParameter> AllParameters { get; } =
        All.SelectMany(s => s.Parameters).GroupBy(p => p.Name).Select(g => g.First()).ToList();

    public static ScenarioInfo? Find(string name) =>
        All.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));

    public static ScenarioInfo Get(string name) =>
        Find(name) ?? throw new InvalidOperationException($"scenario {name} is not in the catalog");
}
