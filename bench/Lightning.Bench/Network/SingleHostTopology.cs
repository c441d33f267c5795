using Lightning.Bench.Chain;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// A topology on this Docker host: a compose project (<see cref="TopologyLauncher"/>) whose node folders, trace sockets
/// and cgroups are this host's; the nodes' spans collected here (<see cref="TraceRecorder"/>), their deaths from this
/// engine's events, their profiles by this host's perf.
/// </summary>
internal sealed class SingleHostTopology(
    TopologySpec topology,
    NetworkOptions options,
    RunLayout layout,
    DockerEngine engine,
    IComposeRunner compose,
    NodeKindCatalog kinds,
    RunProgress progress
) : ITopologyHost
{
    private readonly TopologyLauncher launcher = new(topology, options, layout, engine, compose, kinds, progress);

    public string? HostName => null;

    public IReadOnlyDictionary<string, string> NodeHosts { get; } = new Dictionary<string, string>();

    public bool Started => launcher.Started;

    public IReadOnlyDictionary<string, string> Containers => launcher.Containers;

    public string Describe(int containers) => $"starting {containers} containers";

    public INodeDatabase? DatabaseOf(string node) =>
        topology.Node(node).Database == Databases.Postgres
        && launcher.Containers.TryGetValue(Databases.ServerName, out var server)
            ? new PostgresDatabases.NodeDatabase(engine, server, ComposeGenerator.DatabaseName(node))
            : null;

    public async Task<HostedTopology> UpAsync(
        ComposeFragments fragments,
        RunCredentials credentials,
        NodeLogs logs,
        bool collectTraces,
        CancellationToken ct = default
    )
    {
        await launcher.PrepareAsync(fragments, credentials, ct);
        ISpanCollection? traces = null;
        var traced = topology.Nodes.Where(n => kinds.Get(n.Kind).Traces is not null).ToList();
        if (collectTraces && traced.Count > 0)
        {
            // Bound before the nodes start: a node sends to the path it is given and drops what finds no listener.
            traces = TraceRecorder.Start(
                traced.Select(n => (n.Name, layout.TraceSocket(n.Name))),
                Path.Combine(options.ResultsDirectory, SpanJsonLines.FileName)
            );
        }
        IReadOnlyDictionary<string, string> containers;
        try
        {
            containers = await launcher.UpAsync(ct);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            if (traces is not null)
            {
                await traces.DisposeAsync();
            }
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
        return new HostedTopology(
            evidence,
            new DeathWatch(engine, launcher.ProjectFilter, evidence.DescribeAsync, progress),
            traces
        );
    }

    /// <summary>The topology's containers that ran and exited, looked for until one has or <paramref name="limit"/> passes.</summary>
    private async Task<IReadOnlyDictionary<string, string>> ExitedWithinAsync(TimeSpan limit, CancellationToken ct)
    {
        IReadOnlyDictionary<string, string> exited = new Dictionary<string, string>();
        try
        {
            await Wait.UntilAsync(
                "a container of the topology to be marked exited",
                async c =>
                {
                    exited = await launcher.ExitedAsync(c);
                    return exited.Count > 0 ? WaitState.Met() : WaitState.NotYet("none exited yet");
                },
                limit,
                ct
            );
        }
        catch (WaitTimeoutException)
        {
            // None exited: the start failed for another reason.
        }
        return exited;
    }

    public async Task<BitcoinMiner> StartMinerAsync(
        RunCredentials credentials,
        NodeWaits waits,
        bool seeded,
        CancellationToken ct = default
    )
    {
        var miner = await BitcoindBootstrap.StartAsync(
            engine,
            launcher.Containers[TopologySpec.BitcoindName],
            credentials,
            waits,
            seeded,
            ct
        );
        if (launcher.Containers.TryGetValue(Databases.ServerName, out var postgres))
        {
            await PostgresDatabases.CreateAsync(
                engine,
                postgres,
                topology.Nodes.Where(n => n.Database == Databases.Postgres).Select(n => n.Name).ToList(),
                waits,
                node => Path.Combine(layout.NodeDirectory(node), NodeServiceSettings.DatabaseReadyFile),
                ct
            );
        }
        // bitcoind answers with its chain: the nodes that wait for it may start.
        foreach (var node in topology.Nodes.Where(n => kinds.Get(n.Kind).WaitsForChain))
        {
            await File.WriteAllTextAsync(
                Path.Combine(layout.NodeDirectory(node.Name), INodeKind.ChainReadyFile),
                "",
                ct
            );
        }
        return miner;
    }

    public async Task<Func<string, NodeContainer>> NodeContainersAsync(CancellationToken ct = default)
    {
        // Nodes share bitcoind's network namespace, so what they publish is published by bitcoind's container.
        var published =
            (await engine.InspectContainerAsync(launcher.Containers[TopologySpec.BitcoindName], ct))?.HostPorts
            ?? new Dictionary<string, int>();
        return node => new NodeContainer(
            node,
            launcher.Containers[node],
            layout.NodeDirectory(node),
            published,
            ComposeGenerator.PeerAddressOf(topology, node)
        );
    }

    public async Task RestartNodeAsync(
        string node,
        TimeSpan grace,
        Func<CancellationToken, Task> whileStopped,
        CancellationToken ct = default
    )
    {
        var id = launcher.Containers[node];
        // The engine answers a stop once the container has exited (or was killed after the grace).
        await engine.StopContainerAsync(id, grace, ct);
        await whileStopped(ct);
        await engine.StartContainerAsync(id, ct);
    }

    public async Task<INodeMeter> CreateMeterAsync(CancellationToken ct = default) =>
        await CpuMeter.CreateAsync(engine, LightningContainers(), ct);

    public Task<ICaseProfiler> StartProfileAsync(
        RunProfiling profiling,
        string caseFolder,
        CancellationToken ct = default
    ) => profiling.StartCaseAsync(engine, LightningContainers(), caseFolder, ct);

    public async Task StopTracesAsync(ISpanCollection? traces, Func<string, Func<Task>, Task> attempt)
    {
        if (traces is not null)
        {
            await attempt("stop collecting spans", () => traces.DisposeAsync().AsTask());
        }
    }

    public async Task TearDownAsync(NodeLogs logs, Func<string, Func<Task>, Task> attempt)
    {
        if (!launcher.Started)
        {
            return;
        }
        using var step = progress.Begin($"{options.ProjectName}: tearing down");
        await attempt(
            "keep the node logs",
            () =>
            {
                logs.Keep(options.ResultsDirectory);
                return Task.CompletedTask;
            }
        );
        await launcher.TearDownAsync(attempt);
    }

    /// <summary>The Lightning nodes' containers, and the PostgreSQL server's that keeps their databases (its costs are theirs).</summary>
    private Dictionary<string, string> LightningContainers()
    {
        var containers = topology.Nodes.ToDictionary(n => n.Name, n => launcher.Containers[n.Name]);
        if (launcher.Containers.TryGetValue(Databases.ServerName, out var postgres))
        {
            containers[Databases.ServerName] = postgres;
        }
        return containers;
    }
}
