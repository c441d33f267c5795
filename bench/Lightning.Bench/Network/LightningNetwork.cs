using System.Text.Json;
using Lightning.Bench.Chain;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.Rpc;
using Lightning.Bench.Run;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// A started regtest topology: containers, RPC handles, funded channels. Disposing it tears everything down
/// (compose down, then a sweep by label), keeps the compose file and node logs, and is safe to call twice.
/// </summary>
public sealed class LightningNetwork : IAsyncDisposable
{
    private const decimal FundingBtc = 1m;
    private const int ChannelConfirmations = 6;
    private readonly DockerEngine engine;
    private readonly ComposeCli compose;
    private readonly RunProgress progress;
    private readonly Dictionary<string, string> containers = new();
    private readonly Dictionary<string, LightningNode> nodes = new();
    private readonly SemaphoreSlim disposeLock = new(1, 1);
    private DeathWatch? deathWatch;
    private BitcoinMiner? miner;
    private bool started;
    private bool disposed;

    private LightningNetwork(TopologySpec topology, NetworkOptions options, DockerEngine engine, ComposeCli compose, RunProgress progress)
    {
        Topology = topology;
        Options = options;
        Layout = new RunLayout(Path.Combine(options.WorkDirectory, options.ProjectName));
        this.engine = engine;
        this.compose = compose;
        this.progress = progress;
    }

    public TopologySpec Topology { get; }

    public NetworkOptions Options { get; }

    public RunLayout Layout { get; }

    public IReadOnlyDictionary<string, LightningNode> Nodes => nodes;

    public BitcoinMiner Miner => miner ?? throw new InvalidOperationException("the network is not started");

    /// <summary>Cancelled the moment a node's container dies (the engine reports it), so nothing waits on a dead node.</summary>
    public CancellationToken NodeDied => deathWatch?.Died ?? CancellationToken.None;

    /// <summary>The first node death seen, with its evidence.</summary>
    public NodeDiedException? Death => deathWatch?.Death;

    /// <summary>The nodes' span collection, when traces are on; it starts before the nodes do.</summary>
    public TraceRecorder? Traces { get; private set; }

    /// <summary>Creates the handle; call <see cref="StartAsync"/> next, and dispose it whatever happens.</summary>
    public static LightningNetwork Create(TopologySpec topology, NetworkOptions options, DockerEngine engine, ComposeCli compose, RunProgress progress) =>
        new(topology, options, engine, compose, progress);

    public async Task StartAsync(ComposeFragments fragments, CancellationToken ct = default)
    {
        var credentials = RunCredentials.Generate();
        await UpAsync(fragments, credentials, ct);
        await ConnectAsync(credentials, ct);
    }

    /// <summary>Writes the run folder and compose file and starts the containers (no waiting on the nodes).</summary>
    public async Task UpAsync(ComposeFragments fragments, RunCredentials credentials, CancellationToken ct = default)
    {
        using (progress.Begin($"{Options.ProjectName}: starting {Topology.Nodes.Count + 1} containers"))
        {
            PrepareFolders(credentials);
            var settings = new ComposeRunSettings(
                Options.ProjectName, Layout, Options.ContainerUser,
                new Dictionary<string, string>(RunLabels.For(Options.RunId)), Options.TraceSockets, Options.DevTraceFile);
            var yaml = ComposeYaml.Serialize(ComposeGenerator.Generate(Topology, settings, fragments));
            await File.WriteAllTextAsync(Layout.ComposeFile, yaml, ct);
            Directory.CreateDirectory(Options.ResultsDirectory);
            await File.WriteAllTextAsync(Path.Combine(Options.ResultsDirectory, "docker-compose.yml"), yaml, ct);
            if (Options.CollectTraces)
            {
                // Bound before the nodes start: Core Lightning sends to the path it is given and drops what finds no listener.
                Traces = TraceRecorder.Start(
                    Topology.Nodes.Select(n => (n.Name, Layout.TraceSocket(n.Name))),
                    Path.Combine(Options.ResultsDirectory, SpanJsonLines.FileName));
            }

            started = true;
            var up = await compose.UpAsync(Options.ProjectName, Layout.ComposeFile, ct);
            if (!up.Succeeded)
            {
                throw new InvalidOperationException($"{compose.Version} could not start the topology: {up.Tail(5)}");
            }
            foreach (var container in await engine.ListContainersAsync($"{RunLabels.ComposeProject}={Options.ProjectName}", ct))
            {
                containers[container.Labels[ComposeGenerator.NodeLabel]] = container.Id;
            }
            deathWatch = new DeathWatch(engine, $"{RunLabels.ComposeProject}={Options.ProjectName}", DescribeDeathAsync, progress);
        }
    }

    /// <summary>Waits for bitcoind and every lightningd to answer, mines the first coins and waits for the nodes to sync.</summary>
    public async Task ConnectAsync(RunCredentials credentials, CancellationToken ct = default)
    {
        using (progress.Begin("bitcoind: waiting for RPC, mining 101 blocks"))
        {
            var details = await engine.InspectContainerAsync(containers[TopologySpec.BitcoindName], ct)
                ?? throw new InvalidOperationException("the bitcoind container disappeared");
            if (!details.HostPorts.TryGetValue($"{ComposeGenerator.BitcoindRpcPort}/tcp", out var port))
            {
                await ThrowIfNodeDiedAsync(ct);
                throw new InvalidOperationException("bitcoind's RPC port was not published");
            }
            var rpc = new BitcoinRpcClient(new Uri($"http://127.0.0.1:{port}/"), credentials.User, credentials.Password);
            await GuardedWaitAsync("bitcoind RPC to answer", async c =>
            {
                var info = await rpc.CallAsync("getblockchaininfo", [], c);
                return WaitState.Met(info.GetProperty("chain").GetString()!);
            }, ct);
            miner = await BitcoinMiner.CreateAsync(rpc, ct);
            await miner.MineAsync(101, ct);
        }

        using (progress.Begin($"{string.Join(", ", Topology.Nodes.Select(n => n.Name))}: waiting for lightningd"))
        {
            await Task.WhenAll(Topology.Nodes.Select(n => ConnectNodeAsync(n.Name, ct)));
            await WaitSyncedAsync(ct);
        }
    }

    /// <summary>Waits until every node has seen bitcoind's current tip.</summary>
    public async Task WaitSyncedAsync(CancellationToken ct = default)
    {
        var height = await Miner.GetHeightAsync(ct);
        await Task.WhenAll(nodes.Values.Select(node => GuardedWaitAsync($"{node.Name} to sync to block {height}", async c =>
        {
            var info = await node.CallAsync("getinfo", ct: c);
            var seen = info.GetProperty("blockheight").GetInt64();
            var warning = info.TryGetProperty("warning_bitcoind_sync", out var w) ? w.GetString()
                : info.TryGetProperty("warning_lightningd_sync", out var l) ? l.GetString() : null;
            return seen >= height && warning is null
                ? WaitState.Met()
                : WaitState.NotYet($"blockheight {seen}{(warning is null ? "" : $", {warning}")}");
        }, ct)));
    }

    /// <summary>Polls a condition with the step timeout; if a check fails and a node has died, says so at once.</summary>
    public Task GuardedWaitAsync(string condition, Func<CancellationToken, Task<WaitState>> check, CancellationToken ct = default) =>
        Wait.UntilAsync(condition, async c =>
        {
            try
            {
                return await check(c);
            }
            catch (JsonRpcException e) when (e.Code is JsonRpcException.MethodNotFound or JsonRpcException.InvalidParams)
            {
                // Asking again cannot help: the node does not know the call (an older or newer build).
                throw new WaitAbortedException($"{condition}: {e.Message}");
            }
            catch (Exception e) when (e is not OperationCanceledException and not WaitAbortedException)
            {
                await ThrowIfNodeDiedAsync(c);
                throw;
            }
        }, Options.StepTimeout, ct);

    /// <summary>Throws <see cref="NodeDiedException"/> for the first node whose container is no longer running.</summary>
    public async Task ThrowIfNodeDiedAsync(CancellationToken ct = default)
    {
        foreach (var (name, id) in containers)
        {
            var details = await engine.InspectContainerAsync(id, ct);
            if (details is null)
            {
                throw new NodeDiedException(name, -1, "(container removed)");
            }
            if (!details.Running)
            {
                throw new NodeDiedException(name, details.ExitCode, await LogTailAsync(name, id, ct));
            }
        }
    }

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
            if (Traces is not null)
            {
                await Attempt("stop collecting spans", () => Traces.DisposeAsync().AsTask());
            }
            foreach (var node in nodes.Values)
            {
                await Attempt($"close {node.Name}'s RPC connection", () => node.DisposeAsync().AsTask());
            }
            miner?.Dispose();
            if (started)
            {
                await TearDownAsync();
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

    private async Task TearDownAsync()
    {
        using var step = progress.Begin($"{Options.ProjectName}: tearing down");
        await Attempt("keep the node logs", () =>
        {
            KeepLogs();
            return Task.CompletedTask;
        });
        await Attempt("run compose down", async () =>
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(25));
            try
            {
                var down = await compose.DownAsync(Options.ProjectName, Layout.ComposeFile, timeout.Token);
                if (!down.Succeeded)
                {
                    progress.Info($"compose down failed ({down.Tail()}); removing by label");
                }
            }
            catch (Exception e) when (e is OperationCanceledException or TimeoutException)
            {
                progress.Info("compose down took too long; removing by label");
            }
        });
        // Whatever compose left (it was killed, or an older compose): remove by label.
        await Attempt("remove the containers by label", async () =>
        {
            using var sweepTimeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.ComposeProject}={Options.ProjectName}", sweepTimeout.Token);
        });
        try
        {
            Directory.Delete(Layout.Root, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            progress.Info($"could not remove {Layout.Root}: {e.Message}");
        }
    }

    private async Task<NodeDiedException> DescribeDeathAsync(string containerId, CancellationToken ct)
    {
        var name = containers.FirstOrDefault(c => c.Value == containerId).Key ?? containerId;
        var details = await engine.InspectContainerAsync(containerId, ct);
        return new NodeDiedException(name, details?.ExitCode ?? -1, await LogTailAsync(name, containerId, ct));
    }

    /// <summary>
    /// The end of a node's log: its own log file in the run folder (what lightningd or bitcoind wrote, complete up to
    /// its death), else what the engine kept of its output.
    /// </summary>
    private async Task<string> LogTailAsync(string node, string containerId, CancellationToken ct)
    {
        const int lines = 20;
        var file = LogFileOf(node);
        var tail = File.Exists(file) ? LogTail.Read(file, lines) : "";
        if (tail.Length == 0)
        {
            tail = (await engine.GetLogsAsync(containerId, lines, ct)).TrimEnd();
        }
        return tail.Length > 0 ? tail : "(its log is empty)";
    }

    private string LogFileOf(string node) => node == TopologySpec.BitcoindName
        ? Path.Combine(Layout.NodeDirectory(node), "regtest", "debug.log")
        : Path.Combine(Layout.NodeDirectory(node), "lightningd.log");

    private void KeepLogs()
    {
        var logs = Path.Combine(Options.ResultsDirectory, "logs");
        Directory.CreateDirectory(logs);
        var sources = Topology.Nodes.Select(n => n.Name).Append(TopologySpec.BitcoindName).Select(n => (n, LogFileOf(n)));
        foreach (var (name, source) in sources)
        {
            if (File.Exists(source))
            {
                File.Copy(source, Path.Combine(logs, $"{name}.log"), overwrite: true);
            }
        }
    }

    private void PrepareFolders(RunCredentials credentials)
    {
        if (Directory.Exists(Layout.Root))
        {
            throw new IOException($"run folder {Layout.Root} already exists; another run with the same id?");
        }
        // Claimed before any secret is written, so a harness killed now still has its folder removed by the next run.
        NodeFolderSweeper.Claim(CreatePrivateDirectory(Layout.Root));
        var bitcoindDir = CreatePrivateDirectory(Layout.NodeDirectory(TopologySpec.BitcoindName));
        WritePrivateFile(Path.Combine(bitcoindDir, "bitcoin.conf"), $"rpcauth={credentials.RpcAuth()}\n");
        foreach (var node in Topology.Nodes)
        {
            var dir = CreatePrivateDirectory(Layout.NodeDirectory(node.Name));
            WritePrivateFile(Path.Combine(dir, "config"),
                $"bitcoin-rpcuser={credentials.User}\nbitcoin-rpcpassword={credentials.Password}\n");
        }
    }

    private async Task ConnectNodeAsync(string name, CancellationToken ct)
    {
        ClnRpcClient? rpc = null;
        JsonElement info = default;
        await GuardedWaitAsync($"{name} RPC socket to answer", async c =>
        {
            if (!File.Exists(Layout.RpcSocket(name)))
            {
                await ThrowIfNodeDiedAsync(c);
                return WaitState.NotYet($"{Layout.RpcSocket(name)} does not exist yet");
            }
            rpc ??= await ClnRpcClient.ConnectAsync(name, Layout.RpcSocket(name), c);
            try
            {
                info = await rpc.CallAsync("getinfo", null, $"lnbench:getinfo#setup-{name}", c);
            }
            catch (RpcConnectionException)
            {
                await rpc.DisposeAsync();
                rpc = null;
                throw;
            }
            return WaitState.Met();
        }, ct);
        var node = new LightningNode(name, containers[name], rpc!, info.GetProperty("id").GetString()!,
            info.TryGetProperty("version", out var version) ? version.GetString() ?? "" : "");
        lock (nodes)
        {
            nodes[name] = node;
        }
    }

    private static string CreatePrivateDirectory(string path)
    {
        var info = Directory.CreateDirectory(path);
        if (!OperatingSystem.IsWindows())
        {
            info.UnixFileMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        }
        return path;
    }

    private static void WritePrivateFile(string path, string content)
    {
        File.WriteAllText(path, content);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }
    }
}
