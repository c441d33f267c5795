namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>
/// Every capability a workload or an option may need, declared once: the node calls (each with the interface a node
/// implements to offer it) and what a kind itself offers. A kind states its <see cref="INodeKind.Offers"/>, a workload
/// its needs; neither names the other.
/// </summary>
internal static class KnownCapabilities
{
    public static readonly Capability Keysend = new(
        "keysend",
        "paying without an invoice (keysend)",
        typeof(IKeysendPayer)
    );

    public static readonly Capability Bookkeeper = new(
        "bookkeeper",
        "a bookkeeper of its balances the harness can ask",
        typeof(IBookkeeper)
    );

    public static readonly Capability ChannelBalances = new(
        "channel balances",
        "its channels' balances, by peer",
        typeof(IChannelBalances)
    );

    public static readonly Capability PathChoice = new(
        "path choice",
        "a payment over a last hop the harness chooses",
        typeof(IPathChoice)
    );

    public static readonly Capability RouteQueries = new(
        "route queries",
        "being asked for routes through its graph",
        typeof(IRouteQueries)
    );

    public static readonly Capability GraphChannels = new(
        "graph channels",
        "being asked whether its graph has a channel",
        typeof(IGraphChannels)
    );

    public static readonly Capability HistoryListing = new(
        "history listing",
        "listing a history written into its database",
        typeof(IHistoryListing)
    );

    public static readonly Capability ChannelListing = new(
        "channel listing",
        "listing its channels with their peers",
        typeof(IChannelListing)
    );

    public static readonly Capability HistoryPages = new(
        "history pages",
        "listing its invoices and payments a page at a time from an index",
        typeof(IHistoryPages)
    );

    /// <summary>The mainnet graph written into its store before it starts (--graph).</summary>
    public static readonly Capability Graph = new("graph", "a graph loaded into its gossip store");

    /// <summary>Its database on the topology's PostgreSQL server (--db postgres).</summary>
    public static readonly Capability Postgres = new("postgres", "a database on PostgreSQL");

    /// <summary>Its nodes on a Docker Swarm, their RPC piped by the hosts' agents (--swarm).</summary>
    public static readonly Capability Swarm = new("swarm", "running on a Docker Swarm");

    /// <summary>Its nodes under Valgrind (--instructions).</summary>
    public static readonly Capability Instructions = new("instructions", "counting instructions under Valgrind");

    /// <summary>A history of <paramref name="what"/> (<see cref="HistoryKinds"/>) written into a stopped node's database (--history).</summary>
    public static Capability HistoryOf(string what) =>
        new($"history of {what}", $"a history of {what} written into its database");

    /// <summary>A history of <paramref name="what"/> written into the node's database on the topology's PostgreSQL server (--history with --db postgres).</summary>
    public static Capability HistoryOnPostgres(string what) =>
        new($"history of {what} on postgres", $"a history of {what} written into its database on PostgreSQL");

    /// <summary>The node calls, each offered by the nodes that implement its interface.</summary>
    public static IReadOnlyList<Capability> NodeCalls { get; } =
    [
        Keysend,
        Bookkeeper,
        ChannelBalances,
        PathChoice,
        RouteQueries,
        GraphChannels,
        HistoryListing,
        ChannelListing,
        HistoryPages,
    ];

    /// <summary>The node calls a node type offers: those whose interface it implements.</summary>
    public static IEnumerable<Capability> OfNode(Type nodeType) =>
        NodeCalls.Where(c => c.Interface!.IsAssignableFrom(nodeType));

    /// <summary>The node call <typeparamref name="T"/> offers.</summary>
    public static Capability Of<T>()
        where T : INodeFeature => NodeCalls.Single(c => c.Interface == typeof(T));
}
