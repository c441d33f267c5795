using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Lightning.Bench.Options;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The harness's side of one agent: connects and shows the token, then reads frames and hands spans and counts to the
/// topology they belong to. A connection that drops (or carries bad input, counted) is made again, with the binds of
/// every topology still recording sent again (an agent that restarted binds them anew) and the unbinds of those
/// stopping; a refusal (wrong token) is final.
/// </summary>
internal sealed class RelayClient : IAsyncDisposable
{
    private static readonly TimeSpan FirstRetry = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan LastRetry = TimeSpan.FromSeconds(1);

    private readonly EndPoint agent;
    private readonly byte[] token;
    private readonly CancellationTokenSource closing = new();
    private readonly ConcurrentDictionary<string, RelayedTraceRecorder> recorders = new();
    private readonly ConcurrentDictionary<string, TaskCompletionSource<BoundMessage>> binding = new();
    private readonly ConcurrentDictionary<int, TaskCompletionSource<CostsMessage>> costs = new();
    private readonly ConcurrentDictionary<int, TaskCompletionSource<QuietMessage>> quiets = new();
    private readonly ConcurrentDictionary<int, TaskCompletionSource<ProfileStateMessage>> profileStates = new();
    private readonly ConcurrentDictionary<int, RelayProfile> folding = new();
    private readonly ConcurrentDictionary<RelayProblem, long> badFrames = new();
    private readonly SemaphoreSlim sending = new(1, 1);
    private readonly Task running;
    private TaskCompletionSource<WelcomeMessage> welcomed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile NetworkStream? stream;
    private long session;
    private long sessions;
    private long connections;
    private int nextRequest;

    private RelayClient(EndPoint agent, byte[] token)
    {
        this.agent = agent;
        this.token = token;
        running = Task.Run(RunAsync);
    }

    public static RelayClient Start(EndPoint agent, byte[] token) => new(agent, token);

    public RelayLinkStats Stats =>
        new(
            Interlocked.Read(ref connections),
            Interlocked.Read(ref sessions),
            badFrames.ToDictionary(b => b.Key, b => b.Value)
        );

    /// <summary>The agent's welcome on the current connection (its host and session); throws <see cref="RelayRefusedException"/> if refused.</summary>
    public Task<WelcomeMessage> ConnectedAsync(TimeSpan timeout, CancellationToken ct = default) =>
        Volatile.Read(ref welcomed).Task.WaitAsync(timeout, ct);

    /// <summary>Binds a topology's trace sockets on the agent's host and records what arrives from them.</summary>
    public async Task<RelayedTraceRecorder> BindAsync(
        string topology,
        IReadOnlyList<string> nodes,
        string spansFile,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        var recorder = new RelayedTraceRecorder(this, topology, nodes, spansFile);
        var bound = binding[topology] = new TaskCompletionSource<BoundMessage>(
            TaskCreationOptions.RunContinuationsAsynchronously
        );
        recorders[topology] = recorder;
        await TrySendAsync(new BindMessage(topology, nodes).Encode(), ct);
        recorder.Bound = await bound.Task.WaitAsync(timeout, ct);
        return recorder;
    }

    /// <summary>Reads the nodes' cgroups on the agent's host.</summary>
    public async Task<IReadOnlyList<NodeCostReading>> ReadCostsAsync(
        IReadOnlyList<CostTarget> targets,
        TimeSpan timeout,
        CancellationToken ct = default
    ) => (await AskAsync(costs, id => new CostsRequestMessage(id, targets).Encode(), timeout, ct)).Readings;

    /// <summary>Sends a request under a new id and waits for the answer the reader files under that id in <paramref name="answers"/>.</summary>
    private async Task<T> AskAsync<T>(
        ConcurrentDictionary<int, TaskCompletionSource<T>> answers,
        Func<int, byte[]> request,
        TimeSpan timeout,
        CancellationToken ct
    )
    {
        var id = Interlocked.Increment(ref nextRequest);
        var answer = answers[id] = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        try
        {
            if (!await TrySendAsync(request(id), ct))
            {
                throw new IOException($"no connection to the agent at {agent}");
            }
            return await answer.Task.WaitAsync(timeout, ct);
        }
        finally
        {
            answers.TryRemove(id, out _);
        }
    }

    /// <summary>
    /// The wait for quiet nodes before a timed invocation, made on the agent's host (its cgroups read every
    /// <paramref name="poll"/>, no round trip per reading): how long it took and whether they fell quiet. A node the
    /// agent cannot read is an <see cref="IOException"/> naming it.
    /// </summary>
    public async Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(
        IReadOnlyList<CostTarget> targets,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        TimeSpan poll,
        double idleNsPerSecond,
        TimeSpan patience,
        CancellationToken ct = default
    )
    {
        var message = await AskAsync(
            quiets,
            id =>
                new QuietRequestMessage(
                    id,
                    quiet,
                    busyShare,
                    limit,
                    poll,
                    (long)Math.Round(idleNsPerSecond),
                    targets
                ).Encode(),
            limit + patience,
            ct
        );
        if (message.Problem.Length > 0)
        {
            throw new IOException($"the agent at {agent} cannot wait for quiet nodes: {message.Problem}");
        }
        return (message.Waited, message.Quiet);
    }

    /// <summary>Starts a switched-off perf record per node on the agent's host (all or none: a node it cannot profile fails the start with its reason).</summary>
    public async Task<RelayProfile> StartProfileAsync(
        string topology,
        IReadOnlyList<ProfileTarget> targets,
        ProfileSettings settings,
        TimeSpan timeout,
        CancellationToken ct = default
    )
    {
        await AskProfileAsync(
            id => new ProfileStartMessage(id, topology, settings.FrequencyHz, settings.CallGraph, targets).Encode(),
            $"start the profiles of {topology}",
            timeout,
            ct
        );
        return new RelayProfile(this, topology, targets.Select(t => t.Node).ToList());
    }

    /// <summary>Sends a profile request and waits for its ProfileState; a node's problem is an <see cref="IOException"/> naming it.</summary>
    internal async Task AskProfileAsync(Func<int, byte[]> request, string what, TimeSpan timeout, CancellationToken ct)
    {
        var id = Interlocked.Increment(ref nextRequest);
        var answer = profileStates[id] = new TaskCompletionSource<ProfileStateMessage>(
            TaskCreationOptions.RunContinuationsAsynchronously
        );
        try
        {
            await SendProfileAsync(request(id), timeout, ct);
            ProfileStateMessage state;
            try
            {
                state = await answer.Task.WaitAsync(timeout, ct);
            }
            catch (TimeoutException)
            {
                throw new TimeoutException($"the agent at {agent} did not {what} within {timeout.TotalSeconds:0} s");
            }
            if (state.Problems is { Length: > 0 } problems)
            {
                throw new IOException($"the agent at {agent} could not {what}: {problems}");
            }
        }
        finally
        {
            profileStates.TryRemove(id, out _);
        }
    }

    /// <summary>Sends once connected (a request made while the connection is being made again waits for it).</summary>
    internal async Task SendProfileAsync(byte[] frame, TimeSpan timeout, CancellationToken ct)
    {
        await ConnectedAsync(timeout, ct);
        if (!await TrySendAsync(frame, ct))
        {
            throw new IOException($"no connection to the agent at {agent}");
        }
    }

    internal int Track(RelayProfile profile)
    {
        var id = Interlocked.Increment(ref nextRequest);
        folding[id] = profile;
        return id;
    }

    internal void Untrack(int id) => folding.TryRemove(id, out _);

    internal Task SendUnbindAsync(string topology, CancellationToken ct) =>
        TrySendAsync(new UnbindMessage(topology).Encode(), ct);

    internal void Forget(RelayedTraceRecorder recorder) =>
        recorders.TryRemove(new KeyValuePair<string, RelayedTraceRecorder>(recorder.Topology, recorder));

    public async ValueTask DisposeAsync()
    {
        if (closing.IsCancellationRequested)
        {
            return;
        }
        closing.Cancel();
        stream?.Dispose();
        await running.ContinueWith(_ => { }, TaskScheduler.Default);
        closing.Dispose();
        sending.Dispose();
    }

    /// <summary>Sends on the current connection; false when there is none (the next connection sends binds and unbinds itself).</summary>
    private async Task<bool> TrySendAsync(byte[] frame, CancellationToken ct)
    {
        var current = stream;
        if (current is null)
        {
            return false;
        }
        await sending.WaitAsync(ct);
        try
        {
            await current.WriteAsync(frame, ct);
            return true;
        }
        catch (Exception e) when (e is IOException or SocketException or ObjectDisposedException)
        {
            return false;
        }
        finally
        {
            sending.Release();
        }
    }

    private async Task RunAsync()
    {
        var retry = FirstRetry;
        while (!closing.IsCancellationRequested)
        {
            try
            {
                using var connection = await Dial.ConnectAsync(agent, closing.Token);
                var current = new NetworkStream(connection, ownsSocket: false);
                // Frames are read through a buffer (a burst of spans in a few reads, not two per frame); writes go to the socket's stream.
                var reading = new BufferedStream(current, 64 * 1024);
                await current.WriteAsync(new HelloMessage(HelloMessage.CurrentVersion, token).Encode(), closing.Token);
                var first = await RelayWire.ReadAsync(reading, RelayWire.MaxFrameBytes, closing.Token);
                if (first is { Type: RelayFrameType.Refused } refusal)
                {
                    Volatile
                        .Read(ref welcomed)
                        .TrySetException(
                            new RelayRefusedException(agent.ToString()!, RefusedMessage.Decode(refusal).Reason)
                        );
                    return;
                }
                if (first is not { Type: RelayFrameType.Welcome } welcome)
                {
                    throw new RelayProtocolException(
                        RelayProblem.Unexpected,
                        $"the agent answered Hello with {first?.Type.ToString() ?? "nothing"}"
                    );
                }
                var message = WelcomeMessage.Decode(welcome);
                if (message.Session != Interlocked.Exchange(ref session, message.Session))
                {
                    Interlocked.Increment(ref sessions);
                }
                Interlocked.Increment(ref connections);
                stream = current;
                foreach (var recorder in recorders.Values)
                {
                    await TrySendAsync(
                        new BindMessage(recorder.Topology, [.. recorder.Relay.Select(r => r.Node)]).Encode(),
                        closing.Token
                    );
                    if (recorder.Stopping)
                    {
                        await TrySendAsync(new UnbindMessage(recorder.Topology).Encode(), closing.Token);
                    }
                }
                var previous = Volatile.Read(ref welcomed);
                if (!previous.TrySetResult(message))
                {
                    Volatile.Write(ref welcomed, CompletedWith(message));
                }
                retry = FirstRetry;
                await ReadAsync(reading, message.Session);
            }
            catch (RelayProtocolException e)
            {
                badFrames.AddOrUpdate(e.Problem, 1, (_, n) => n + 1);
            }
            catch (Exception e)
                when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
            {
                // The agent is away: try again.
            }
            stream = null;
            if (closing.IsCancellationRequested)
            {
                return;
            }
            if (Volatile.Read(ref welcomed).Task.IsCompleted)
            {
                Volatile.Write(
                    ref welcomed,
                    new TaskCompletionSource<WelcomeMessage>(TaskCreationOptions.RunContinuationsAsynchronously)
                );
            }
            await Task.Delay(retry, closing.Token).ContinueWith(_ => { }, TaskScheduler.Default);
            retry = TimeSpan.FromTicks(Math.Min(retry.Ticks * 2, LastRetry.Ticks));
        }
    }

    private static TaskCompletionSource<WelcomeMessage> CompletedWith(WelcomeMessage message)
    {
        var done = new TaskCompletionSource<WelcomeMessage>(TaskCreationOptions.RunContinuationsAsynchronously);
        done.SetResult(message);
        return done;
    }

    private async Task ReadAsync(Stream current, long agentSession)
    {
        while (await RelayWire.ReadAsync(current, RelayWire.MaxFrameBytes, closing.Token) is { } frame)
        {
            switch (frame.Type)
            {
                case RelayFrameType.Span:
                    var span = SpanMessage.Decode(frame);
                    if (recorders.TryGetValue(span.Topology, out var recorder))
                    {
                        recorder.OnSpan(agentSession, span);
                    }
                    break;
                case RelayFrameType.Counters:
                    var counters = CountersMessage.Decode(frame);
                    foreach (var stream in counters.Streams)
                    {
                        if (recorders.TryGetValue(stream.Topology, out var owner))
                        {
                            owner.OnCounters(counters.Session, stream, counters.Final);
                        }
                    }
                    if (counters.Final)
                    {
                        foreach (var topology in counters.Streams.Select(s => s.Topology).Distinct())
                        {
                            if (recorders.TryGetValue(topology, out var owner))
                            {
                                owner.OnFinal(counters.Session);
                            }
                        }
                        // An agent that no longer knew the topology answers with no streams: every stopping recorder has its answer.
                        if (counters.Streams.Count == 0)
                        {
                            foreach (var stopping in recorders.Values.Where(r => r.Stopping))
                            {
                                stopping.OnFinal(counters.Session);
                            }
                        }
                    }
                    break;
                case RelayFrameType.Bound:
                    var bound = BoundMessage.Decode(frame);
                    if (binding.TryGetValue(bound.Topology, out var waiting))
                    {
                        waiting.TrySetResult(bound);
                    }
                    break;
                case RelayFrameType.Costs:
                    var readings = CostsMessage.Decode(frame);
                    if (costs.TryGetValue(readings.RequestId, out var asked))
                    {
                        asked.TrySetResult(readings);
                    }
                    break;
                case RelayFrameType.Quiet:
                    var quietAnswer = QuietMessage.Decode(frame);
                    if (quiets.TryGetValue(quietAnswer.RequestId, out var waitingQuiet))
                    {
                        waitingQuiet.TrySetResult(quietAnswer);
                    }
                    break;
                case RelayFrameType.ProfileState:
                    var state = ProfileStateMessage.Decode(frame);
                    if (profileStates.TryGetValue(state.RequestId, out var waitingState))
                    {
                        waitingState.TrySetResult(state);
                    }
                    break;
                case RelayFrameType.ProfileChunk:
                    var chunk = ProfileChunkMessage.Decode(frame);
                    if (folding.TryGetValue(chunk.RequestId, out var profile))
                    {
                        profile.OnChunk(chunk);
                    }
                    break;
                case RelayFrameType.Unsupported:
                    UnsupportedMessage.Decode(frame);
                    break;
                default:
                    throw new RelayProtocolException(RelayProblem.Unexpected, $"a {frame.Type} frame from the agent");
            }
        }
    }
}
