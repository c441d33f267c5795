using Lightning.Bench.Chain;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// A started regtest topology: its containers on their platform's host (<see cref="ITopologyHost"/>: this machine, or
/// a swarm's), its miner (<see cref="BitcoindBootstrap"/>), its node handles (<see cref="NodeConnections"/>), a watch
/// for node deaths (<see cref="DeathWatch"/>) and its logs (<see cref="NodeLogs"/>). Disposing it tears everything
/// down, keeps the compose file and node logs, and is safe twice.
/// </summary>
internal sealed class LightningNetwork : IAsyncDisposable
{
    private readonly DockerEngine engine;
    private readonly NodeKindCatalog kinds;
    private readonly RunProgress progress;
    private readonly ITopologyHost host;
    private readonly NodeLogs logs;
    private readonly SemaphoreSlim disposeLock = new(1, 1);
    private Dictionary<string, ILightningNode> nodes = new();
    private NodeWaits? waits;
    private DeathWatch? deathWatch;
    private BitcoinMiner? miner;
    private bool disposed;

    private LightningNetwork(
        TopologySpec topology,
        NetworkOptions options,
        ITopologyHost host,
        DockerEngine engine,
        NodeKindCatalog kinds,
        RunProgress progress
    )
    {
        Topology = topology;
        Options = options;
        Layout = new RunLayout(Path.Combine(options.WorkDirectory, options.ProjectName));
        this.engine = engine;
        this.kinds = kinds;
        this.progress = progress;
        this.host = host;
        logs = new NodeLogs(topology, Layout, kinds, engine);
    }

    public TopologySpec Topology { get; }

    public NetworkOptions Options { get; }

    public RunLayout Layout { get; }

    /// <summary>Where the topology runs.</summary>
    public ITopologyHost Host => host;

    public IReadOnlyDictionary<string, ILightningNode> Nodes => nodes;

    public BitcoinMiner Miner => miner ?? throw new InvalidOperationException("the network is not started");

    /// <summary>Setup's waits: bounded, and ended at once with the evidence when a node dies.</summary>
    public NodeWaits Waits => waits ?? throw new InvalidOperationException("the network is not started");

    /// <summary>Cancelled the moment a node's container dies (the engine reports it), so nothing waits on a dead node.</summary>
    public CancellationToken NodeDied => deathWatch?.Died ?? CancellationToken.None;

    /// <summary>The first node death seen, with its evidence.</summary>
    public NodeDiedException? Death => deathWatch?.Death;

    /// <summary>The nodes' span collection, when traces are on; it starts before the nodes do.</summary>
    public ISpanCollection? Traces { get; private set; }

    /// <summary>How the spans of this topology's nodes read and join to payments, each by its own kind; null when none sends spans.</summary>
    public TopologyTraceJoin? TraceJoin => TopologyTraceJoin.Of(Topology, kinds);

    /// <summary>Creates the handle on its host; call <see cref="StartAsync"/> next, and dispose it whatever happens.</summary>
    public static LightningNetwork Create(
        TopologySpec topology,
        NetworkOptions options,
        ITopologyHost host,
        DockerEngine engine,
        NodeKindCatalog kinds,
        RunProgress progress
    ) => new(topology, options, host, engine, kinds, progress);

    /// <summary>Containers up, bitcoind with spendable coins, every node answering and synced to the tip.</summary>
    /// <param name="clock">Times the steps (containers, chain, nodes), when given.</param>
    public async Task StartAsync(
        ComposeFragments fragments,
        SetupTimes.Clock? clock = null,
        CancellationToken ct = default
    )
    {
        var credentials = RunCredentials.Generate();
        await UpAsync(fragments, credentials, ct);
        clock?.Lap("containers");
        var seeded = Options.Seed is not null;
        using (
            progress.Begin(
                seeded
                    ? "bitcoind: waiting for RPC (chain seeded at 101 blocks)"
                    : "bitcoind: waiting for RPC, mining 101 blocks"
            )
        )
        {
            miner = await host.StartMinerAsync(credentials, Waits, seeded, ct);
        }
        clock?.Lap("chain");
        if (Topology.Nodes.Count == 0)
        {
            return;
        }
        using (progress.Begin($"{string.Join(", ", Topology.Nodes.Select(n => n.Name))}: waiting for the nodes"))
        {
            nodes = new Dictionary<string, ILightningNode>(
                await NodeConnections.ConnectAsync(Topology, await host.NodeContainersAsync(ct), kinds, Waits, ct)
            );
            await WaitSyncedAsync(ct);
        }
        clock?.Lap("nodes");
    }

    /// <summary>
    /// Stops bitcoind cleanly and keeps its chain and wallet in <paramref name="destination"/> as the run's seed. Its exit
    /// is no death: the watch stops first. The topology is then good only for teardown.
    /// </summary>
    public async Task<ChainSeed> SaveChainAsync(string destination, CancellationToken ct = default)
    {
        if (deathWatch is not null)
        {
            await deathWatch.DisposeAsync();
            deathWatch = null;
        }
        await Miner.StopNodeAsync(ct);
        var bitcoind = host.Containers[TopologySpec.BitcoindName];
        var exitCode = await engine.WaitContainerAsync(bitcoind, Options.StepTimeout, ct);
        if (exitCode != 0)
        {
            throw new InvalidOperationException(
                $"bitcoind exited with code {exitCode} when asked to stop: {await logs.TailAsync(TopologySpec.BitcoindName, bitcoind, ct)}"
            );
        }
        return ChainSeed.Save(Layout.NodeDirectory(TopologySpec.BitcoindName), destination);
    }

    /// <summary>How long a node is given to shut down cleanly when it is restarted.</summary>
    public static readonly TimeSpan ShutdownGrace = TimeSpan.FromSeconds(60);

    /// <summary>
    /// Restarts one node: its connection closed, its container stopped (SIGTERM), <paramref name="whileStopped"/> run on
    /// its stopped folder, the container started, and a new connection made once it answers; its exit is no death.
    /// </summary>
    /// <returns>From the container started again to its RPC answering.</returns>
    public async Task<TimeSpan> RestartNodeAsync(
        string name,
        Func<CancellationToken, Task> whileStopped,
        CancellationToken ct = default
    )
    {
        using var expected = deathWatch?.Expect(name);
        await nodes[name].DisposeAsync();
        var started = System.Diagnostics.Stopwatch.StartNew();
        await host.RestartNodeAsync(
            name,
            ShutdownGrace,
            async c =>
            {
                // Under --instructions, the stopped processes' vgdb FIFOs and dumps go: the new ones reuse their pids.
                Instructions.ValgrindWrapping.ForgetProcesses(Layout.NodeDirectory(name));
                await whileStopped(c);
                started.Restart();
            },
            ct
        );
        var containers = await host.NodeContainersAsync(ct);
        nodes[name] = await NodeConnections.ConnectOneAsync(
            Topology.Nodes.Single(n => n.Name == name),
            containers(name),
            kinds,
            Waits,
            ct
        );
        return started.Elapsed;
    }

    /// <summary>
    /// Dials a restarted node's channel peers from it, as a node does at its start with its peers' addresses (on regtest
    /// no peer announces one): a peer that dialled it would otherwise come back only at its next reconnect attempt,
    /// whose backoff grows with how long the node was down (Core Lightning: carol back 7–10 s after bob's start when a
    /// million-invoice snapshot kept him down 19 s; a restarted lnd dials none of them, and alice did not dial carol
    /// again for 120 s). A peer already connected again is left as it is.
    /// </summary>
    public async Task RedialPeersAsync(string name, CancellationToken ct = default)
    {
        foreach (var peer in Topology.PeersOf(name))
        {
            await nodes[name].ConnectPeerAsync(nodes[peer], ct);
        }
    }

    /// <summary>Writes the run folder and starts the containers on the host (no waiting on the nodes).</summary>
    public async Task UpAsync(ComposeFragments fragments, RunCredentials credentials, CancellationToken ct = default)
    {
        using (progress.Begin($"{Options.ProjectName}: {host.Describe(Topology.Nodes.Count + 1)}"))
        {
            var hosted = await host.UpAsync(fragments, credentials, logs, Options.CollectTraces, ct);
            Traces = hosted.Traces;
            waits = new NodeWaits(hosted.Evidence, Options.StepTimeout);
            deathWatch = hosted.DeathWatch;
        }
    }

    /// <summary>Waits until every node has seen bitcoind's current tip.</summary>
    public async Task WaitSyncedAsync(CancellationToken ct = default)
    {
        var height = await Miner.GetHeightAsync(ct);
        await Task.WhenAll(
            nodes.Values.Select(node =>
                Waits.UntilAsync(
                    $"{node.Name} to sync to block {height}",
                    async c =>
                    {
                        var state = await node.GetSyncStateAsync(c);
                        return state.SyncedTo(height) ? WaitState.Met() : WaitState.NotYet(state.ToString());
                    },
                    ct
                )
            )
        );
    }

    /// <summary>Each container's id by node name (bitcoind included), once started.</summary>
    public IReadOnlyDictionary<string, string> Containers => host.Containers;

    /// <summary>A reader of the Lightning nodes' CPU time, memory and storage (their cgroups), on their host.</summary>
    public Task<INodeMeter> CreateCpuMeterAsync(CancellationToken ct = default) => host.CreateMeterAsync(ct);

    /// <summary>Throws <see cref="NodeDiedException"/> for the first node whose container is no longer running.</summary>
    public Task ThrowIfNodeDiedAsync(CancellationToken ct = default) => Waits.ThrowIfAnyDiedAsync(ct);

    /// <summary>Tears the topology down: every step runs whatever the one before it did, and the containers always go.</summary>
    public async ValueTask DisposeAsync()
    {
        await disposeLock.WaitAsync();
        try
        {
            if (disposed)
            {
                return;
            }
            disposed = true;
            // Teardown kills the containers: stop listening for deaths first.
            await Attempt(
                "stop watching for node deaths",
                async () =>
                {
                    if (deathWatch is not null)
                    {
                        await deathWatch.DisposeAsync();
                    }
                }
            );
            await host.StopTracesAsync(Traces, Attempt);
            foreach (var node in nodes.Values)
            {
                await Attempt($"close {node.Name}'s RPC connection", () => node.DisposeAsync().AsTask());
            }
            miner?.Dispose();
            await host.TearDownAsync(logs, Attempt);
        }
        finally
        {
            disposeLock.Release();
        }
    }

    private async Task Attempt(string step, Func<Task> action)
    {
        try
        {
            await action();
        }
        catch (Exception e)
        {
            progress.Info($"{Options.ProjectName}: could not {step} ({e.Message}); tearing down anyway");
        }
    }
}
