using Lightning.Bench.Chain;
using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Profiling;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Network;

/// <summary>
/// Where one topology lives and how the harness reaches it: its containers started (and its nodes' span collection,
/// bound before they start), bitcoind's RPC, each node's connection, the nodes' cgroups and profiles, its logs and its
/// teardown. One host (<see cref="SingleHostTopology"/>) or a swarm (Swarm/), made by the run's <see cref="ITopologyPlatform"/>;
/// <see cref="LightningNetwork"/> speaks only to this.
/// </summary>
internal interface ITopologyHost
{
    /// <summary>The host the topology runs on, as its record names it (null: the harness's own).</summary>
    string? HostName { get; }

    /// <summary>Nodes that run apart from <see cref="HostName"/>, each with its host (empty: none).</summary>
    IReadOnlyDictionary<string, string> NodeHosts { get; }

    /// <summary>Whether anything was started (so teardown has something to remove).</summary>
    bool Started { get; }

    /// <summary>Each running container's id by node name (bitcoind included), once up.</summary>
    IReadOnlyDictionary<string, string> Containers { get; }

    /// <summary>What starting the topology takes, as the progress line says it ("starting 3 containers").</summary>
    string Describe(int containers);

    /// <summary>Starts the containers (with <paramref name="collectTraces"/>, the span collection first); no waiting on the nodes.</summary>
    Task<HostedTopology> UpAsync(
        ComposeFragments fragments,
        RunCredentials credentials,
        NodeLogs logs,
        bool collectTraces,
        CancellationToken ct = default
    );

    /// <summary>bitcoind's RPC answering, with spendable coins (the seed's miner wallet, or 101 blocks mined).</summary>
    Task<BitcoinMiner> StartMinerAsync(
        RunCredentials credentials,
        NodeWaits waits,
        bool seeded,
        CancellationToken ct = default
    );

    /// <summary>The node's database on the topology's PostgreSQL server, once up; null when it keeps its database in its folder (or this host cannot reach it).</summary>
    INodeDatabase? DatabaseOf(string node) => null;

    /// <summary>How each Lightning node is reached by its kind.</summary>
    Task<Func<string, NodeContainer>> NodeContainersAsync(CancellationToken ct = default);

    /// <summary>A reader of the Lightning nodes' cgroups (CPU, memory, storage).</summary>
    Task<INodeMeter> CreateMeterAsync(CancellationToken ct = default);

    /// <summary>A switched-off perf recording per Lightning node, tracked by the run's <paramref name="profiling"/>.</summary>
    Task<ICaseProfiler> StartProfileAsync(RunProfiling profiling, string caseFolder, CancellationToken ct = default);

    /// <summary>Stops collecting the nodes' spans where this host collects them itself (after the death watch, before the RPC connections close).</summary>
    Task StopTracesAsync(ISpanCollection? traces, Func<string, Func<Task>, Task> attempt);

    /// <summary>Keeps the containers' logs with the topology's results, then removes the topology; each step runs whatever the one before did.</summary>
    Task TearDownAsync(NodeLogs logs, Func<string, Func<Task>, Task> attempt);

    /// <summary>
    /// Stops one node's container (SIGTERM, its shutdown given <paramref name="grace"/>), runs
    /// <paramref name="whileStopped"/> on its stopped folder (e.g. rows written into its database), and starts it again.
    /// </summary>
    Task RestartNodeAsync(
        string node,
        TimeSpan grace,
        Func<CancellationToken, Task> whileStopped,
        CancellationToken ct = default
    ) => throw new NotSupportedException("this host cannot restart a node");
}
