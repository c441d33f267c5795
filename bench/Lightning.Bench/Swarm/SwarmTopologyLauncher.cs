using System.Net.Sockets;
using System.Text;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Swarm.Relay;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A topology as a stack on the swarm, the counterpart of <see cref="TopologyLauncher"/>: the agent on each of its hosts
/// (the pair's, and those of nodes placed apart) binds its nodes' trace sockets (which makes their folders in the work
/// volume) before the stack is deployed with its configuration secrets; the harness reaches bitcoind's RPC and the
/// agents through the run's gate, each node's JSON-RPC through the agent on its host (<see cref="RelayRpc"/>), its
/// cgroups through that agent (<see cref="RelayMeter"/>); teardown keeps the containers' logs and removes the stack and
/// its secrets.
/// </summary>
internal sealed class SwarmTopologyLauncher(
    TopologySpec topology,
    NetworkOptions options,
    SwarmPlacement placement,
    NodeKindCatalog kinds,
    DockerEngine engine,
    RunProgress progress
) : ITopologyHost, IRemoteNodeState
{
    private const int LogLines = 100_000;
    private IReadOnlyList<RelayedTraceRecorder> recorders = [];
    private SwarmStack? stack;
    private IReadOnlyDictionary<string, StackTask> tasks = new Dictionary<string, StackTask>();

    public string StackName => options.ProjectName;

    /// <summary>The agent on a node's host: where it listens (through the gate) and the harness's connection to it.</summary>
    private (System.Net.EndPoint Endpoint, RelayClient Client) AgentOf(string node) =>
        placement.Platform.AgentOn(placement.HostOf(node));

    /// <summary>The Lightning nodes by the host they run on, the pair's host first (it also makes the stack's folder, bitcoind's).</summary>
    private IReadOnlyList<(string Host, IReadOnlyList<string> Nodes)> NodesByHost =>
        topology
            .Nodes.GroupBy(n => placement.HostOf(n.Name))
            .OrderBy(g => g.Key == placement.Host ? 0 : 1)
            .ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => (g.Key, (IReadOnlyList<string>)g.Select(n => n.Name).ToList()))
            .ToList();

    /// <summary>Whether the stack was deployed (so teardown has something to remove).</summary>
    public bool Started { get; private set; }

    public string? HostName => placement.Host;

    public IReadOnlyDictionary<string, string> NodeHosts => placement.NodeHosts;

    public string Describe(int containers)
    {
        var apart =
            placement.NodeHosts.Count == 0
                ? ""
                : $" ({string.Join(", ", placement.NodeHosts.Select(n => $"{n.Key} on {n.Value}"))})";
        return $"deploying its stack of {containers} services on {placement.Host}{apart}";
    }

    /// <summary>The agent binds the trace sockets first, then the stack runs; deaths are followed through the swarm's tasks.</summary>
    public async Task<HostedTopology> UpAsync(
        ComposeFragments fragments,
        RunCredentials credentials,
        NodeLogs logs,
        bool collectTraces,
        CancellationToken ct = default
    )
    {
        Directory.CreateDirectory(options.ResultsDirectory);
        var recorder = await BindAsync(Path.Combine(options.ResultsDirectory, SpanJsonLines.FileName), ct);
        var traces = collectTraces && topology.Nodes.Any(n => kinds.Get(n.Kind).Traces is not null) ? recorder : null;
        var containers = await DeployAsync(fragments, credentials, ct);
        var evidence = new NodeEvidence(engine, logs, containers, this);
        return new HostedTopology(evidence, await WatchDeathsAsync(evidence.DescribeAsync, ct), traces);
    }

    public Task<Chain.BitcoinMiner> StartMinerAsync(
        RunCredentials credentials,
        NodeWaits waits,
        bool seeded,
        CancellationToken ct = default
    ) => BitcoindBootstrap.StartAsync(BitcoindRpc(credentials), waits, seeded, ct);

    public Task<Func<string, NodeContainer>> NodeContainersAsync(CancellationToken ct = default) =>
        Task.FromResult<Func<string, NodeContainer>>(ContainerOf);

    async Task<INodeMeter> ITopologyHost.CreateMeterAsync(CancellationToken ct) => await CreateMeterAsync(ct);

    public async Task<Profiling.ICaseProfiler> StartProfileAsync(
        Profiling.RunProfiling profiling,
        string caseFolder,
        CancellationToken ct = default
    ) => profiling.Track(new RelayCaseProfiler(await StartProfileAsync(profiling.Settings, ct)));

    /// <summary>The agents' span streams end with the stack (<see cref="TearDownAsync(NodeLogs, Func{string, Func{Task}, Task})"/>).</summary>
    public Task StopTracesAsync(ISpanCollection? traces, Func<string, Func<Task>, Task> attempt) => Task.CompletedTask;

    public async Task TearDownAsync(NodeLogs logs, Func<string, Func<Task>, Task> attempt)
    {
        using var step = progress.Begin($"{options.ProjectName}: removing its stack");
        if (Started)
        {
            await attempt("keep the node logs", () => KeepLogsAsync(CancellationToken.None));
        }
        await TearDownAsync(attempt);
    }

    /// <summary>Each running container's id by service (bitcoind included).</summary>
    public IReadOnlyDictionary<string, string> Containers => tasks.ToDictionary(t => t.Key, t => t.Value.ContainerId);

    /// <summary>
    /// Binds every Lightning node's trace socket on its host (each agent makes the stack's and its nodes' folders in the
    /// work volume, for the nodes' user); the spans go to <paramref name="spansFile"/>. Bound whatever the trace mode:
    /// the folders are needed (bitcoind's data folder is the stack's); a node sends only when its service is told the socket.
    /// </summary>
    public async Task<ISpanCollection> BindAsync(string spansFile, CancellationToken ct)
    {
        var groups = NodesByHost;
        var bound = new List<RelayedTraceRecorder>();
        recorders = bound;
        foreach (var (host, nodes) in groups)
        {
            // Nodes on several hosts: each agent's spans in a part of their own, merged when collection ends.
            var part = groups.Count == 1 ? spansFile : SpreadTraceRecorder.PartFile(spansFile, host);
            var recorder = await placement
                .Platform.AgentOn(host)
                .Client.BindAsync(StackName, nodes, part, TimeSpan.FromSeconds(30), ct);
            bound.Add(recorder);
            if (recorder.Bound?.Sockets.FirstOrDefault(s => s.Problem.Length > 0) is { } failed)
            {
                throw new IOException(
                    $"the agent on {host} could not make {StackName}/{failed.Node}'s folder and trace socket: {failed.Problem}"
                );
            }
        }
        return bound.Count == 1
            ? bound[0]
            : new SpreadTraceRecorder(bound, topology.Nodes.Select(n => n.Name).ToList(), spansFile);
    }

    /// <summary>The configuration secrets and the stack, deployed on the host; returns each service's container id once every task runs.</summary>
    private async Task<IReadOnlyDictionary<string, string>> DeployAsync(
        ComposeFragments fragments,
        RunCredentials credentials,
        CancellationToken ct
    )
    {
        var settings = new StackSettings(
            options.RunId,
            StackName,
            options.ContainerUser,
            RunLabels.For(options.RunId),
            placement.Host,
            options.TraceSockets
        )
        {
            NodeHosts = placement.NodeHosts,
        };
        Started = true;
        var (deployed, file) = await placement.Platform.Run.DeployTopologyAsync(
            topology,
            settings,
            fragments,
            service => ConfigOf(service, credentials),
            kinds,
            ct
        );
        stack = deployed;
        Directory.CreateDirectory(options.ResultsDirectory);
        await File.WriteAllTextAsync(
            Path.Combine(options.ResultsDirectory, "stack.yml"),
            ComposeYaml.Serialize(file),
            ct
        );
        var running = await deployed.WaitRunningAsync(options.StepTimeout, ct);
        tasks = running.ToDictionary(t => t.Service, t => t);
        var elsewhere = running.Where(t => t.Host != placement.Host).Select(t => $"{t.Service} on {t.Host}").ToList();
        if (elsewhere.Count > 0)
        {
            progress.Info(
                $"{StackName}: {string.Join(", ", elsewhere)} (placed apart from {placement.Host}): cross-host latency is part of what is measured"
            );
        }
        return Containers;
    }

    /// <summary>A service's configuration with the run's credentials: bitcoind's rpcauth, a node's as its kind writes it.</summary>
    private byte[] ConfigOf(string service, RunCredentials credentials)
    {
        if (service == TopologySpec.BitcoindName)
        {
            return Encoding.UTF8.GetBytes($"rpcauth={credentials.RpcAuth()}\n");
        }
        // The kind writes its configuration into a folder (on one host, the node's); here a private scratch folder whose one file is the secret.
        var scratch = PrivateFiles.CreateDirectory(
            Path.Combine(Path.GetTempPath(), $"lnbench-config-{Guid.NewGuid():N}")
        );
        try
        {
            kinds.Get(topology.Node(service).Kind).Configure(scratch, credentials);
            var files = Directory.GetFiles(scratch);
            return files.Length == 1
                ? File.ReadAllBytes(files[0])
                : throw new InvalidOperationException(
                    $"the {topology.Node(service).Kind} kind wrote {files.Length} configuration files; a swarm secret holds one"
                );
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }

    /// <summary>A node as its kind connects to it: its JSON-RPC through the agent on its host, its peer address on the overlay.</summary>
    public NodeContainer ContainerOf(string node) =>
        new(
            node,
            tasks[node].ContainerId,
            SwarmNames.ContainerDirectory(StackName, node),
            new Dictionary<string, int>(),
            StackGenerator.PeerAddressOf(StackName, node)
        )
        {
            Relay = new NodeRelay(AgentOf(node).Endpoint, placement.Platform.Token, StackName),
        };

    /// <summary>bitcoind's RPC, on the overlay under its stack's alias, through the run's gate.</summary>
    public Chain.BitcoinRpcClient BitcoindRpc(RunCredentials credentials) =>
        new(
            new Uri(
                $"http://{SwarmNames.Alias(StackName, TopologySpec.BitcoindName)}:{ComposeGenerator.BitcoindRpcPort}/"
            ),
            credentials.User,
            credentials.Password,
            async (host, port, ct) =>
                new NetworkStream(
                    await OverlayGate.ConnectAsync(placement.Platform.Gate, host, port, ct),
                    ownsSocket: true
                )
        );

    /// <summary>The Lightning nodes' cgroups, read by the agent on each node's host by their containers' host pids.</summary>
    private Task<RelayMeter> CreateMeterAsync(CancellationToken ct) =>
        RelayMeter.CreateAsync(
            NodesByHost
                .Select(g =>
                    (
                        placement.Platform.AgentOn(g.Host).Client,
                        (IReadOnlyList<CostTarget>)g.Nodes.Select(n => new CostTarget(n, (int)tasks[n].Pid)).ToList()
                    )
                )
                .ToList(),
            ct
        );

    /// <summary>
    /// A switched-off perf recording per Lightning node by the agent on its host (all or none: a node an agent cannot
    /// profile is named, and the recordings already started on other hosts are abandoned).
    /// </summary>
    public async Task<IReadOnlyList<RelayProfile>> StartProfileAsync(ProfileSettings settings, CancellationToken ct)
    {
        var started = new List<RelayProfile>();
        try
        {
            foreach (var (host, nodes) in NodesByHost)
            {
                started.Add(
                    await placement
                        .Platform.AgentOn(host)
                        .Client.StartProfileAsync(
                            StackName,
                            nodes.Select(n => new ProfileTarget(n, (int)tasks[n].Pid)).ToList(),
                            settings,
                            TimeSpan.FromSeconds(60),
                            ct
                        )
                );
            }
        }
        catch
        {
            await Task.WhenAll(started.Select(p => p.AbandonAsync()));
            throw;
        }
        return started;
    }

    /// <summary>
    /// The watch for node deaths: when every task runs on this host, this engine's "die" events, as on one host (no
    /// polling beside the payments); otherwise the swarm's tasks, followed through the manager (<see cref="SwarmDeathWatch"/>).
    /// </summary>
    public async Task<DeathWatch> WatchDeathsAsync(
        Func<string, CancellationToken, Task<NodeDiedException>> describe,
        CancellationToken ct
    )
    {
        var deployed = stack ?? throw new InvalidOperationException("the stack is not deployed");
        if (tasks.Values.All(OnThisHost))
        {
            return new DeathWatch(engine, $"{StackServices.NamespaceLabel}={StackName}", describe, progress);
        }
        // The evidence names a task's host: the swarm's nodes as they are now.
        var hostsById = (await engine.Swarm.ListNodesAsync(ct)).ToDictionary(n => n.Id, n => n.Hostname);
        return SwarmDeathWatch.Start(engine, deployed, id => hostsById.GetValueOrDefault(id, id), progress);
    }

    /// <summary>Whether a service's container runs on another host than the manager's, whose engine the harness talks to.</summary>
    public bool IsRemote(string node) => tasks.TryGetValue(node, out var task) && !OnThisHost(task);

    /// <summary>A service's death as the manager knows it (its task's state), with the end of its log; null while it runs.</summary>
    public Task<NodeDiedException?> DeathOfAsync(string node, CancellationToken ct = default) =>
        SwarmDeathWatch.DeathOfAsync(
            engine,
            stack ?? throw new InvalidOperationException("the stack is not deployed"),
            node,
            id => tasks.Values.FirstOrDefault(t => t.NodeId == id)?.Host ?? id,
            ct
        );

    /// <summary>Whether a task runs on the manager's host, whose engine the harness talks to.</summary>
    private bool OnThisHost(StackTask task) => task.Host == placement.Platform.Run.Manager.Node.Hostname;

    /// <summary>
    /// Each container's output (a node's log goes there too) into RESULTS/logs/SERVICE.log: this host's engine keeps its
    /// containers'; a task on another host is read through the manager, which asks that host's engine (the service's logs).
    /// </summary>
    public async Task KeepLogsAsync(CancellationToken ct)
    {
        var logs = Path.Combine(options.ResultsDirectory, "logs");
        Directory.CreateDirectory(logs);
        foreach (var (service, task) in tasks)
        {
            var text = OnThisHost(task)
                ? await engine.GetLogsAsync(task.ContainerId, LogLines, ct)
                : await engine.Swarm.GetServiceLogsAsync(StackServices.ServiceName(StackName, service), LogLines, ct);
            await File.WriteAllTextAsync(Path.Combine(logs, $"{service}.log"), text, ct);
        }
    }

    /// <summary>The trace sockets closed (when not finished already), then the stack and its secrets removed; each step runs whatever the one before did.</summary>
    private async Task TearDownAsync(Func<string, Func<Task>, Task> attempt)
    {
        foreach (var ending in recorders)
        {
            await attempt(
                "close the trace sockets on the agent",
                async () =>
                {
                    using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(15));
                    await ending.StopAsync(TimeSpan.FromSeconds(10), writeJsonLines: false, timeout.Token);
                }
            );
            await attempt("stop relaying spans", () => ending.DisposeAsync().AsTask());
        }
        if (Started)
        {
            await attempt(
                "remove the stack",
                async () =>
                {
                    using var timeout = new CancellationTokenSource(SwarmStack.RemovalTimeout);
                    await placement.Platform.Run.RemoveTopologyAsync(StackName, timeout.Token);
                }
            );
        }
    }
}
