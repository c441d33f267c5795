using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The agent on one host: binds the trace sockets the harness asks for, queues every datagram as a span frame, and
/// writes the queue to the one harness connection whose token matched (a newer one replaces it). While no harness is
/// connected it keeps receiving and queuing, so a dropped TCP connection costs nothing but what was in flight on it; a
/// frame whose write failed is written again first on the next connection. It reads cgroups when asked. Bad input is
/// counted and resets its connection; nothing from the network can stop the agent.
/// </summary>
internal sealed partial class RelayAgent : IAsyncDisposable
{
    public static readonly TimeSpan HelloTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Core Lightning's JSON-RPC socket in a node's network folder.</summary>
    public const string RpcSocketName = "lightning-rpc";

    private readonly AgentSettings settings;
    private readonly TcpListener listener;
    private readonly CancellationTokenSource stopping = new();
    private readonly ConcurrentDictionary<string, List<AgentStream>> topologies = new();
    private readonly AgentPoller poller = new();
    private readonly ConcurrentDictionary<string, CountersMessage> retired = new();
    private readonly ConcurrentDictionary<RelayProblem, long> badFrames = new();
    private readonly object bindLock = new();
    private readonly AgentProfiles profiles;
    private readonly AgentCosts costs;
    private readonly AgentOutbox outbox;
    private readonly Task accepting;
    private readonly Task writing;
    private readonly Task counting;
    private volatile AgentConnection? active;
    private long accepted;
    private long refused;
    private long rpcPipes;

    private RelayAgent(AgentSettings settings)
    {
        this.settings = settings;
        costs = new AgentCosts(settings.ProcRoot);
        outbox = new AgentOutbox(settings.MaxQueuedSpans);
        Session =
            RandomNumberGenerator.GetInt32(1, int.MaxValue) * (long)RandomNumberGenerator.GetInt32(1, int.MaxValue);
        Host = settings.Host ?? Environment.MachineName;
        listener = new TcpListener(settings.Listen);
        listener.Start();
        Endpoint = (IPEndPoint)listener.LocalEndpoint;
        var profileFolder = Path.Combine(settings.WorkDirectory, $".perf-{Session:x}");
        profiles = new AgentProfiles(
            profileFolder,
            settings.ProcRoot,
            settings.PerfContainer is { } perf
                ? new ContainerPerfRunner(new Docker.DockerEngine(), perf, Path.Combine(profileFolder, "helpers"))
                : new Profiling.LocalPerfRunner(settings.PerfPath),
            outbox.Enqueue
        );
        accepting = Task.Run(AcceptAsync);
        writing = Task.Run(() => outbox.WriteAsync(() => active, stopping.Token));
        counting = Task.Run(CountAsync);
    }

    /// <summary>Where it listens (the port chosen when asked for 0).</summary>
    public IPEndPoint Endpoint { get; }

    public long Session { get; }

    public string Host { get; }

    public AgentStats Stats =>
        new(
            Interlocked.Read(ref accepted),
            Interlocked.Read(ref refused),
            badFrames.ToDictionary(b => b.Key, b => b.Value),
            outbox.FramesWritten,
            Interlocked.Read(ref rpcPipes)
        );

    /// <summary>Every bound stream's counts now.</summary>
    public IReadOnlyList<RelayStreamCounters> Streams =>
        topologies.Values.SelectMany(s => s).Select(s => s.Counters()).ToList();

    public static RelayAgent Start(AgentSettings settings) => new(settings);

    /// <summary>Runs until <paramref name="ct"/> is cancelled (agent mode: Ctrl+C or the service stopping).</summary>
    public async Task RunAsync(CancellationToken ct = default)
    {
        try
        {
            await Task.Delay(Timeout.Infinite, ct);
        }
        catch (OperationCanceledException) { }
    }

    public async ValueTask DisposeAsync()
    {
        if (stopping.IsCancellationRequested)
        {
            return;
        }
        stopping.Cancel();
        listener.Stop();
        active?.Close();
        outbox.Complete();
        await Task.WhenAll(accepting, writing, counting).WaitAsync(TimeSpan.FromSeconds(10)).ContinueWith(_ => { });
        await profiles.DisposeAsync();
        poller.Dispose();
        foreach (var streams in topologies.Values)
        {
            streams.ForEach(s => s.Dispose());
        }
        topologies.Clear();
        stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!stopping.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await listener.AcceptTcpClientAsync(stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                if (stopping.IsCancellationRequested)
                {
                    return;
                }
                continue;
            }
            _ = Task.Run(() => ServeAsync(client));
        }
    }

    private async Task ServeAsync(TcpClient client)
    {
        client.NoDelay = true;
        var connection = new AgentConnection(client);
        try
        {
            using (var hello = CancellationTokenSource.CreateLinkedTokenSource(stopping.Token))
            {
                hello.CancelAfter(HelloTimeout);
                var frame = await RelayWire.ReadAsync(connection.Stream, RelayWire.MaxHelloBytes, hello.Token);
                if (frame is { Type: RelayFrameType.Probe } probe)
                {
                    var asked = HelloMessage.Decode(probe);
                    if (await RefusedAsync(connection, asked.Version, asked.Token, hello.Token))
                    {
                        return;
                    }
                    await connection.Stream.WriteAsync(
                        new WelcomeMessage(HelloMessage.CurrentVersion, Host, Session).Encode(),
                        hello.Token
                    );
                    return;
                }
                if (frame is { Type: RelayFrameType.RpcOpen } open)
                {
                    await PipeAsync(connection, RpcOpenMessage.Decode(open), hello);
                    return;
                }
                if (frame is not { Type: RelayFrameType.Hello } first)
                {
                    throw new RelayProtocolException(
                        RelayProblem.Unexpected,
                        $"the first frame must be Hello or RpcOpen, not {frame?.Type.ToString() ?? "the end"}"
                    );
                }
                var message = HelloMessage.Decode(first);
                if (await RefusedAsync(connection, message.Version, message.Token, hello.Token))
                {
                    return;
                }
                await connection.Stream.WriteAsync(
                    new WelcomeMessage(HelloMessage.CurrentVersion, Host, Session).Encode(),
                    hello.Token
                );
            }
            Interlocked.Increment(ref accepted);
            var previous = active;
            active = connection;
            previous?.Close();
            await ReadAsync(connection);
        }
        catch (RelayProtocolException e)
        {
            badFrames.AddOrUpdate(e.Problem, 1, (_, n) => n + 1);
        }
        catch (Exception e)
            when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The connection went (or the hello took too long); the harness reconnects.
        }
        finally
        {
            connection.Close();
        }
    }

    private async Task ReadAsync(AgentConnection connection)
    {
        while (await RelayWire.ReadAsync(connection.Stream, RelayWire.MaxFrameBytes, stopping.Token) is { } frame)
        {
            switch (frame.Type)
            {
                case RelayFrameType.Bind:
                    outbox.Enqueue(Bind(BindMessage.Decode(frame)).Encode());
                    break;
                case RelayFrameType.Unbind:
                    outbox.Enqueue(Unbind(UnbindMessage.Decode(frame).Topology).Encode());
                    break;
                case RelayFrameType.CostsRequest:
                    var request = CostsRequestMessage.Decode(frame);
                    outbox.Enqueue(
                        new CostsMessage(request.RequestId, request.Targets.Select(costs.Read).ToList()).Encode()
                    );
                    break;
                case RelayFrameType.QuietRequest:
                    var quiet = QuietRequestMessage.Decode(frame);
                    // Waits on its own: the connection keeps reading (a profile switch, costs) meanwhile.
                    _ = Task.Run(() => AnswerQuietAsync(quiet));
                    break;
                case RelayFrameType.ProfileStart:
                    profiles.Start(ProfileStartMessage.Decode(frame));
                    break;
                case RelayFrameType.ProfileSwitch:
                    profiles.Switch(ProfileSwitchMessage.Decode(frame));
                    break;
                case RelayFrameType.ProfileStop:
                    profiles.Stop(ProfileStopMessage.Decode(frame));
                    break;
                default:
                    throw new RelayProtocolException(RelayProblem.Unexpected, $"a {frame.Type} frame from the harness");
            }
        }
    }

    /// <summary>Refuses (counted, answered; the caller closes) a first frame with another protocol version or a wrong token.</summary>
    private async Task<bool> RefusedAsync(AgentConnection connection, int version, byte[] token, CancellationToken ct)
    {
        var reason =
            version != HelloMessage.CurrentVersion
                ? $"protocol version {version}; this agent speaks {HelloMessage.CurrentVersion}"
            : !CryptographicOperations.FixedTimeEquals(token, settings.Token) ? "wrong token"
            : null;
        if (reason is null)
        {
            return false;
        }
        Interlocked.Increment(ref refused);
        await connection.Stream.WriteAsync(new RefusedMessage(reason).Encode(), ct);
        return true;
    }

    /// <summary>
    /// An RPC connection: after the token, the node's JSON-RPC socket is connected and every byte is copied both ways
    /// until either side closes (then both are closed). The harness's JSON-RPC ids pass through unchanged, so the
    /// spans still join to its payments.
    /// </summary>
    private async Task PipeAsync(AgentConnection connection, RpcOpenMessage open, CancellationTokenSource hello)
    {
        if (await RefusedAsync(connection, open.Version, open.Token, hello.Token))
        {
            return;
        }
        Interlocked.Increment(ref accepted);
        var name = $"{open.Topology}/{open.Node}";
        var node = (Socket?)null;
        string problem;
        if (
            !PathName().IsMatch(open.Topology)
            || !PathName().IsMatch(open.Node)
            || !NetworkName().IsMatch(open.Network)
        )
        {
            problem =
                $"'{name}' on '{open.Network}' is not a topology, node and network name (lowercase letters, digits, '-')";
        }
        else
        {
            var path = Path.Combine(settings.WorkDirectory, open.Topology, open.Node, open.Network, RpcSocketName);
            node = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            try
            {
                await node.ConnectAsync(new UnixDomainSocketEndPoint(path), hello.Token);
                problem = "";
            }
            catch (SocketException e)
            {
                node.Dispose();
                node = null;
                problem = $"{name}: cannot connect to {path} on {Host} ({e.SocketErrorCode}): is the node running?";
            }
        }
        await connection.Stream.WriteAsync(new RpcOpenedMessage(problem).Encode(), hello.Token);
        if (node is null)
        {
            return;
        }
        Interlocked.Increment(ref rpcPipes);
        using (node)
        using (var nodeStream = new NetworkStream(node, ownsSocket: false))
        using (var done = CancellationTokenSource.CreateLinkedTokenSource(stopping.Token))
        {
            var up = CopyAsync(connection.Stream, nodeStream, done.Token);
            var down = CopyAsync(nodeStream, connection.Stream, done.Token);
            await Task.WhenAny(up, down);
            done.Cancel();
            connection.Close();
            try
            {
                node.Shutdown(SocketShutdown.Both);
            }
            catch (SocketException) { }
            await Task.WhenAll(up, down);
        }
    }

    private static async Task CopyAsync(Stream from, Stream to, CancellationToken ct)
    {
        try
        {
            await from.CopyToAsync(to, 64 * 1024, ct);
        }
        catch (Exception e)
            when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // Either side went: the pipe closes both.
        }
    }

    private BoundMessage Bind(BindMessage bind)
    {
        lock (bindLock)
        {
            if (topologies.TryGetValue(bind.Topology, out var bound))
            {
                return new BoundMessage(
                    bind.Topology,
                    bound.Select(s => new BoundSocket(s.Node, "", s.KernelBufferBytes)).ToList()
                );
            }
            retired.TryRemove(bind.Topology, out _);
            var streams = new List<AgentStream>();
            var sockets = new List<BoundSocket>();
            foreach (var node in bind.Nodes)
            {
                if (!PathName().IsMatch(bind.Topology) || !PathName().IsMatch(node))
                {
                    sockets.Add(
                        new BoundSocket(
                            node,
                            $"'{bind.Topology}/{node}' is not a topology and node name (lowercase letters, digits, '-')",
                            0
                        )
                    );
                    continue;
                }
                try
                {
                    var folder = Path.Combine(settings.WorkDirectory, bind.Topology, node);
                    Directory.CreateDirectory(folder);
                    var stream = new AgentStream(
                        bind.Topology,
                        node,
                        Path.Combine(folder, RunLayout.TraceSocketName),
                        outbox.TryQueueSpan
                    );
                    if (settings.Owner is var (uid, gid))
                    {
                        UnixOwnership.Set(Path.Combine(settings.WorkDirectory, bind.Topology), uid, gid);
                        UnixOwnership.Set(folder, uid, gid);
                        UnixOwnership.Set(stream.SocketPath, uid, gid);
                    }
                    streams.Add(stream);
                    sockets.Add(new BoundSocket(node, "", stream.KernelBufferBytes));
                }
                catch (Exception e) when (e is IOException or SocketException or UnauthorizedAccessException)
                {
                    sockets.Add(new BoundSocket(node, e.Message, 0));
                }
            }
            topologies[bind.Topology] = streams;
            poller.Set(topologies.Values.SelectMany(s => s));
            return new BoundMessage(bind.Topology, sockets);
        }
    }

    /// <summary>Closes a topology's sockets after a last drain; the final counts go behind its last span frame.</summary>
    private CountersMessage Unbind(string topology)
    {
        lock (bindLock)
        {
            if (topologies.TryRemove(topology, out var streams))
            {
                poller.Set(topologies.Values.SelectMany(s => s));
                streams.ForEach(s => s.Dispose());
                retired[topology] = new CountersMessage(
                    true,
                    Session,
                    outbox.FramesWritten,
                    streams.Select(s => s.Counters()).ToList()
                );
            }
            return retired.TryGetValue(topology, out var final)
                ? final with
                {
                    FramesWritten = outbox.FramesWritten,
                }
                : new CountersMessage(true, Session, outbox.FramesWritten, []);
        }
    }

    /// <summary>The harness's wait for quiet nodes, answered when it ends (<see cref="AgentCosts.WaitQuietAsync"/>).</summary>
    private async Task AnswerQuietAsync(QuietRequestMessage request)
    {
        try
        {
            outbox.Enqueue((await costs.WaitQuietAsync(request, stopping.Token)).Encode());
        }
        catch (OperationCanceledException)
        {
            // The agent is stopping: the harness's wait ends with its connection.
        }
    }

    private async Task CountAsync()
    {
        var interval = settings.CountersInterval ?? TimeSpan.FromSeconds(1);
        try
        {
            while (true)
            {
                await Task.Delay(interval, stopping.Token);
                if (active is { Closed: false } && !topologies.IsEmpty)
                {
                    outbox.Enqueue(new CountersMessage(false, Session, outbox.FramesWritten, Streams).Encode());
                }
            }
        }
        catch (OperationCanceledException) { }
    }

    /// <summary>A topology or node name as a folder name: nothing that could climb out of the work directory.</summary>
    [GeneratedRegex("^[a-z0-9][a-z0-9-]{0,63}$")]
    private static partial Regex PathName();

    public static bool IsPathName(string name) => PathName().IsMatch(name);

    /// <summary>A Core Lightning network folder (regtest, testnet4, signet, bitcoin).</summary>
    [GeneratedRegex("^[a-z][a-z0-9]{0,31}$")]
    private static partial Regex NetworkName();
}
