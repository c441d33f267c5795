using Lightning.Bench.Chain;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// A started regtest topology: its containers (<see cref="TopologyLauncher"/>), its miner (<see cref="BitcoindBootstrap"/>),
/// its node handles (<see cref="NodeConnections"/>), a watch for node deaths (<see cref="DeathWatch"/>) and its logs
/// (<see cref="NodeLogs"/>). Disposing it tears everything down, keeps the compose file and node logs, and is safe twice.
/// </summary>
internal sealed class LightningNetwork : IAsyncDisposable
{
    private readonly DockerEngine engine;
    private readonly NodeKindCatalog kinds;
    private readonly RunProgress progress;
    private readonly TopologyLauncher launcher;
    private readonly Swarm.SwarmTopologyLauncher? swarm;
    private readonly NodeLogs logs;
    private readonly SemaphoreSlim disposeLock = new(1, 1);
    private IReadOnlyDictionary<string, ILightningNode> nodes = new Dictionary<string, ILightningNode>();
    private NodeWaits? waits;
    private DeathWatch? deathWatch;
    private BitcoinMiner? miner;
    private bool disposed;

    private LightningNetwork(TopologySpec topology, NetworkOptions options, DockerEngine engine, IComposeRunner compose, NodeKindCatalog kinds, RunProgress progress)
    {
        Topology = topology;
        Options = options;
        Layout = new RunLayout(Path.Combine(options.WorkDirectory, options.ProjectName));
        this.engine = engine;
        this.kinds = kinds;
        this.progress = progress;
        launcher = new TopologyLauncher(topology, options, Layout, engine, compose, kinds, progress);
        swarm = options.Swarm is { } placement ? new Swarm.SwarmTopologyLauncher(topology, options, placement, kinds, engine, progress) : null;
        logs = new NodeLogs(topology, Layout, kinds, engine);
    }

    public TopologySpec Topology { get; }

    public NetworkOptions Options { get; }

    public RunLayout Layout { get; }

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

    /// <summary>Creates the handle; call <see cref="StartAsync"/> next, and dispose it whatever happens.</summary>
    public static LightningNetwork Create(
        TopologySpec topology, NetworkOptions options, DockerEngine engine, IComposeRunner compose, NodeKindCatalog kinds, RunProgress progress) =>
        new(topology, options, engine, compose, kinds, progress);

    /// <summary>Containers up, bitcoind with spendable coins, every node answering and synced to the tip.</summary>
    /// <param name="clock">Times the steps (containers, chain, nodes), when given.</param>
    public async Task StartAsync(ComposeFragments fragments, SetupTimes.Clock? clock = null, CancellationToken ct = default)
    {
        var credentials = RunCredentials.Generate();
        await UpAsync(fragments, credentials, ct);
        clock?.Lap("containers");
        var seeded = Options.Seed is not null;
        using (progress.Begin(seeded ? "bitcoind: waiting for RPC (chain seeded at 101 blocks)" : "bitcoind: waiting for RPC, mining 101 blocks"))
        {
            miner = swarm is not null
                ? await BitcoindBootstrap.StartAsync(swarm.BitcoindRpc(credentials), Waits, seeded, ct)
                : await BitcoindBootstrap.StartAsync(engine, launcher.Containers[TopologySpec.BitcoindName], credentials, Waits, seeded, ct);
        }
        clock?.Lap("chain");
        if (Topology.Nodes.Count == 0)
        {
            return;
        }
        using (progress.Begin($"{string.Join(", ", Topology.Nodes.Select(n => n.Name))}: waiting for the nodes"))
        {
            nodes = await NodeConnections.ConnectAsync(Topology, Containers, Layout, kinds, engine, Waits, ct, swarm is null ? null : swarm.ContainerOf);
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
        var bitcoind = launcher.Containers[TopologySpec.BitcoindName];
        var exitCode = await engine.WaitContainerAsync(bitcoind, Options.StepTimeout, ct);
        if (exitCode != 0)
        {
            throw new InvalidOperationException($"bitcoind exited with code {exitCode} when asked to stop: {await logs.TailAsync(TopologySpec.BitcoindName, bitcoind, ct)}");
        }
        return ChainSeed.Save(Layout.NodeDirectory(TopologySpec.BitcoindName), destination);
    }

    /// <summary>Writes the run folder and compose file and starts the containers (no waiting on the nodes).</summary>
    public async Task UpAsync(ComposeFragments fragments, RunCredentials credentials, CancellationToken ct = default)
    {
        if (swarm is not null)
        {
            await UpOnSwarmAsync(swarm, fragments, credentials, ct);
            return;
        }
        using (progress.Begin($"{Options.ProjectName}: starting {Topology.Nodes.Count + 1} containers"))
        {
            await launcher.PrepareAsync(fragments, credentials, ct);
            var traced = Topology.Nodes.Where(n => kinds.Get(n.Kind).Traces is not null).ToList();
            if (Options.CollectTraces && traced.Count > 0)
            {
                // Bound before the nodes start: a node sends to the path it is given and drops what finds no listener.
                Traces = TraceRecorder.Start(
                    traced.Select(n => (n.Name, Layout.TraceSocket(n.Name))),
                    Path.Combine(Options.ResultsDirectory, SpanJsonLines.FileName));
            }
            IReadOnlyDictionary<string, string> containers;
            try
            {
                containers = await launcher.UpAsync(ct);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // A container that started and exited at once is the cause to report (bitcoind, whose network
                // namespace the nodes join: they cannot start without it), not the start that failed after it.
                // The engine may not have marked it exited yet when its namespace is already gone: look for up to 3 s.
                var exited = await ExitedWithinAsync(TimeSpan.FromSeconds(3), ct);
                if (exited.Count == 0)
                {
                    throw;
                }
                var id = exited.OrderBy(x => x.Key == TopologySpec.BitcoindName ? 0 : 1).First().Value;
                throw await new NodeEvidence(engine, logs, exited).DescribeAsync(id, ct);
            }
            var evidence = new NodeEvidence(engine, logs, containers);
            waits = new NodeWaits(evidence, Options.StepTimeout);
            deathWatch = new DeathWatch(engine, launcher.ProjectFilter, evidence.DescribeAsync, progress);
        }
    }

    /// <summary>The stack on its host: the agent binds the trace sockets first, then the stack runs; deaths are followed through the swarm's tasks.</summary>
    private async Task UpOnSwarmAsync(Swarm.SwarmTopologyLauncher stack, ComposeFragments fragments, RunCredentials credentials, CancellationToken ct)
    {
        var apart = Options.Swarm!.NodeHosts.Count == 0 ? "" : $" ({string.Join(", ", Options.Swarm.NodeHosts.Select(n => $"{n.Key} on {n.Value}"))})";
        using (progress.Begin($"{Options.ProjectName}: deploying its stack of {Topology.Nodes.Count + 1} services on {Options.Swarm.Host}{apart}"))
        {
            Directory.CreateDirectory(Options.ResultsDirectory);
            var recorder = await stack.BindAsync(Path.Combine(Options.ResultsDirectory, SpanJsonLines.FileName), ct);
            if (Options.CollectTraces && Topology.Nodes.Any(n => kinds.Get(n.Kind).Traces is not null))
            {
                Traces = recorder;
            }
            var containers = await stack.UpAsync(fragments, credentials, ct);
            var evidence = new NodeEvidence(engine, logs, containers, stack);
            waits = new NodeWaits(evidence, Options.StepTimeout);
            deathWatch = await stack.WatchDeathsAsync(evidence.DescribeAsync, ct);
        }
    }

    /// <summary>The topology's containers that ran and exited, looked for until one has or <paramref name="limit"/> passes.</summary>
    private async Task<IReadOnlyDictionary<string, string>> ExitedWithinAsync(TimeSpan limit, CancellationToken ct)
    {
        IReadOnlyDictionary<string, string> exited = new Dictionary<string, string>();
        try
        {
            await Wait.UntilAsync("a container of the topology to be marked exited", async c =>
            {
                exited = await launcher.ExitedAsync(c);
                return exited.Count > 0 ? WaitState.Met() : WaitState.NotYet("none exited yet");
            }, limit, ct);
        }
        catch (WaitTimeoutException)
        {
            // None exited: the start failed for another reason.
        }
        return exited;
    }

    /// <summary>Waits until every node has seen bitcoind's current tip.</summary>
    public async Task WaitSyncedAsync(CancellationToken ct = default)
    {
        var height = await Miner.GetHeightAsync(ct);
        await Task.WhenAll(nodes.Values.Select(node => Waits.UntilAsync($"{node.Name} to sync to block {height}", async c =>
        {
            var state = await node.GetSyncStateAsync(c);
            return state.SyncedTo(height) ? WaitState.Met() : WaitState.NotYet(state.ToString());
        }, ct)));
    }

    /// <summary>Each container's id by node name (bitcoind included), once started.</summary>
    public IReadOnlyDictionary<string, string> Containers => swarm?.Containers ?? launcher.Containers;

    /// <summary>Whether the topology is a stack on a swarm (its nodes reached through the agent on its host).</summary>
    public bool OnSwarm => swarm is not null;

    /// <summary>On a swarm: a switched-off perf recording per Lightning node, made by the agent on each of the topology's hosts.</summary>
    public Task<IReadOnlyList<Relay.RelayProfile>> StartRelayedProfileAsync(Profiling.ProfileSettings settings, CancellationToken ct = default) =>
        (swarm ?? throw new InvalidOperationException($"{Options.ProjectName} is not on a swarm: its profiles are recorded here")).StartProfileAsync(settings, ct);

    /// <summary>A reader of the Lightning nodes' CPU time (their cgroups): here, or on a swarm through the agent on their host.</summary>
    public async Task<INodeMeter> CreateCpuMeterAsync(CancellationToken ct = default) => swarm is not null
        ? await swarm.CreateMeterAsync(ct)
        : await CpuMeter.CreateAsync(engine, Topology.Nodes.ToDictionary(n => n.Name, n => launcher.Containers[n.Name]), ct);

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
            await Attempt("stop watching for node deaths", async () =>
            {
                if (deathWatch is not null)
                {
                    await deathWatch.DisposeAsync();
                }
            });
            if (Traces is not null && swarm is null)
            {
                await Attempt("stop collecting spans", () => Traces.DisposeAsync().AsTask());
            }
            foreach (var node in nodes.Values)
            {
                await Attempt($"close {node.Name}'s RPC connection", () => node.DisposeAsync().AsTask());
            }
            miner?.Dispose();
            if (swarm is not null)
            {
                using var step = progress.Begin($"{Options.ProjectName}: removing its stack");
                if (swarm.Started)
                {
                    await Attempt("keep the node logs", () => swarm.KeepLogsAsync(CancellationToken.None));
                }
                await swarm.TearDownAsync(Attempt);
            }
            else if (launcher.Started)
            {
                using var step = progress.Begin($"{Options.ProjectName}: tearing down");
                await Attempt("keep the node logs", () =>
                {
                    logs.Keep(Options.ResultsDirectory);
                    return Task.CompletedTask;
                });
                await launcher.TearDownAsync(Attempt);
            }
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
