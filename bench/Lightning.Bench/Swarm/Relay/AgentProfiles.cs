using Lightning.Bench.Options;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// The agent's profiles: per topology, one <see cref="PerfRecording"/> per node on its container's cgroup, the same
/// recorder a single-host run uses, switched on and off as the harness says and folded on the agent's host (perf reads
/// the nodes' binaries through their mount namespaces there; on a swarm, perf runs in helper containers that share the
/// host's pid namespace, see <see cref="ContainerPerfRunner"/>). The operations of one topology run in the order they
/// arrived, off the connection's reading loop: a fold can take a minute and must not hold up spans or costs.
/// </summary>
internal sealed class AgentProfiles(string folder, string procRoot, IPerfRunner runner, Action<byte[]> send)
    : IAsyncDisposable
{
    private readonly System.Collections.Concurrent.ConcurrentDictionary<
        string,
        Dictionary<string, PerfRecording>
    > topologies = new();
    private readonly Dictionary<string, Task> tails = new();
    private readonly object gate = new();
    private readonly CancellationTokenSource stopping = new();

    public void Start(ProfileStartMessage start) => Then(start.Topology, () => StartAsync(start));

    public void Switch(ProfileSwitchMessage change) => Then(change.Topology, () => SwitchAsync(change));

    public void Stop(ProfileStopMessage stop) => Then(stop.Topology, () => StopAsync(stop));

    public async ValueTask DisposeAsync()
    {
        stopping.Cancel();
        Task[] pending;
        lock (gate)
        {
            pending = [.. tails.Values];
        }
        await Task.WhenAll(pending).WaitAsync(TimeSpan.FromSeconds(30)).ContinueWith(_ => { });
        foreach (var recordings in topologies.Values)
        {
            foreach (var recording in recordings.Values)
            {
                await recording.DisposeAsync();
            }
        }
        topologies.Clear();
        stopping.Dispose();
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (DirectoryNotFoundException) { }
    }

    private void Then(string topology, Func<Task> operation)
    {
        lock (gate)
        {
            var tail = tails.TryGetValue(topology, out var previous) ? previous : Task.CompletedTask;
            tails[topology] = tail.ContinueWith(_ => operation(), TaskScheduler.Default).Unwrap();
        }
    }

    private async Task StartAsync(ProfileStartMessage start)
    {
        if (!RelayAgent.IsPathName(start.Topology) || start.Targets.Any(t => !RelayAgent.IsPathName(t.Node)))
        {
            send(
                new ProfileStateMessage(
                    start.RequestId,
                    start
                        .Targets.Select(t => (t.Node, $"'{start.Topology}/{t.Node}' is not a topology and node name"))
                        .ToList()
                ).Encode()
            );
            return;
        }
        if (topologies.ContainsKey(start.Topology))
        {
            send(
                new ProfileStateMessage(
                    start.RequestId,
                    start.Targets.Select(t => (t.Node, $"{start.Topology} is already being profiled")).ToList()
                ).Encode()
            );
            return;
        }
        if (
            start.CallGraph is not (ProfileSettings.Dwarf or ProfileSettings.FramePointers)
            || start.FrequencyHz is < 1 or > 10000
        )
        {
            send(
                new ProfileStateMessage(
                    start.RequestId,
                    start
                        .Targets.Select(t =>
                            (t.Node, $"cannot sample at {start.FrequencyHz} Hz with '{start.CallGraph}' stacks")
                        )
                        .ToList()
                ).Encode()
            );
            return;
        }
        var settings = new ProfileSettings(start.FrequencyHz, start.CallGraph);
        var recordings = new Dictionary<string, PerfRecording>();
        var answers = new List<(string, string)>();
        foreach (var target in start.Targets)
        {
            var (cgroup, problem) = PerfCgroup.Of(target.Pid, procRoot);
            if (cgroup is not null)
            {
                try
                {
                    recordings[target.Node] = await PerfRecording.StartAsync(
                        settings,
                        cgroup,
                        Path.Combine(folder, start.Topology),
                        target.Node,
                        Path.Combine(folder, "buildid"),
                        stopping.Token,
                        runner
                    );
                }
                catch (Exception e)
                    when (e
                            is IOException
                                or TimeoutException
                                or UnauthorizedAccessException
                                or System.ComponentModel.Win32Exception
                    )
                {
                    problem = e.Message;
                }
            }
            answers.Add((target.Node, problem));
        }
        if (answers.Any(a => a.Item2.Length > 0))
        {
            // All or none, as on one host: a case with a node missing from its profile would mislead.
            foreach (var recording in recordings.Values)
            {
                await recording.DisposeAsync();
            }
        }
        else
        {
            topologies[start.Topology] = recordings;
        }
        send(new ProfileStateMessage(start.RequestId, answers).Encode());
    }

    private async Task SwitchAsync(ProfileSwitchMessage change)
    {
        if (!topologies.TryGetValue(change.Topology, out var recordings))
        {
            send(
                new ProfileStateMessage(change.RequestId, [("", $"{change.Topology} is not being profiled")]).Encode()
            );
            return;
        }
        // Every node at once, as a single-host case's profiles are switched: the window each samples is the same.
        var answers = await Task.WhenAll(
            recordings.Select(async r =>
            {
                try
                {
                    await (change.On ? r.Value.EnableAsync(stopping.Token) : r.Value.DisableAsync(stopping.Token));
                    return (r.Key, "");
                }
                catch (Exception e) when (e is IOException or TimeoutException)
                {
                    return (r.Key, e.Message);
                }
            })
        );
        send(new ProfileStateMessage(change.RequestId, answers).Encode());
    }

    private async Task StopAsync(ProfileStopMessage stop)
    {
        if (!topologies.TryRemove(stop.Topology, out var recordings))
        {
            send(
                new ProfileChunkMessage(
                    stop.RequestId,
                    "",
                    true,
                    $"{stop.Topology} is not being profiled",
                    0,
                    0,
                    []
                ).Encode()
            );
            return;
        }
        // One at a time: `perf script` with DWARF unwinding keeps a CPU busy.
        foreach (var (node, recording) in recordings)
        {
            try
            {
                var stacks = await recording.StopAndFoldAsync(stopping.Token);
                var text = new StringWriter();
                stacks.Write(text);
                foreach (
                    var chunk in ProfileChunkMessage.Split(
                        stop.RequestId,
                        node,
                        text.ToString(),
                        recording.Enabled,
                        recording.DataBytes
                    )
                )
                {
                    send(chunk.Encode());
                }
            }
            catch (Exception e) when (e is IOException or TimeoutException or OperationCanceledException)
            {
                send(new ProfileChunkMessage(stop.RequestId, node, true, e.Message, 0, 0, []).Encode());
            }
            finally
            {
                await recording.DisposeAsync();
            }
        }
    }
}
