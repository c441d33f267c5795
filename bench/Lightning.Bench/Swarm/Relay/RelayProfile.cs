using System.Collections.Concurrent;
using System.Text;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// A topology's profiles recorded by its host's agent: switched on and off around the invocations to sample, as a
/// single-host <see cref="CaseProfiler"/> is, and folded on that host; the folded stacks come back in chunks.
/// </summary>
internal sealed class RelayProfile
{
    private readonly RelayClient client;
    private readonly IReadOnlyList<string> nodes;
    private readonly ConcurrentDictionary<string, (StringBuilder Text, ProfileChunkMessage? Last)> arriving = new();
    private TaskCompletionSource<bool>? folded;
    private bool enabled;

    internal RelayProfile(RelayClient client, string topology, IReadOnlyList<string> nodes)
    {
        this.client = client;
        Topology = topology;
        this.nodes = nodes;
    }

    public string Topology { get; }

    public async Task EnableAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        await client.AskProfileAsync(
            id => new ProfileSwitchMessage(id, Topology, true).Encode(),
            $"switch on the profiles of {Topology}",
            timeout,
            ct
        );
        enabled = true;
    }

    /// <summary>Switches sampling off (nothing when it was not on).</summary>
    public async Task DisableAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        if (!enabled)
        {
            return;
        }
        enabled = false;
        await client.AskProfileAsync(
            id => new ProfileSwitchMessage(id, Topology, false).Encode(),
            $"switch off the profiles of {Topology}",
            timeout,
            ct
        );
    }

    /// <summary>Each node's folded stacks, how long it was sampled and how big its raw recording was on the agent's host.</summary>
    public async Task<
        IReadOnlyDictionary<string, (FoldedStacks Stacks, TimeSpan Sampled, long RawBytes)>
    > StopAndFoldAsync(TimeSpan timeout, CancellationToken ct = default)
    {
        folded = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var id = client.Track(this);
        try
        {
            await client.SendProfileAsync(new ProfileStopMessage(id, Topology).Encode(), timeout, ct);
            await folded.Task.WaitAsync(timeout, ct);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException(
                $"the agent did not send the folded profiles of {Topology} within {timeout.TotalSeconds:0} s"
            );
        }
        finally
        {
            client.Untrack(id);
        }
        var problems = arriving
            .Where(a => a.Value.Last!.Problem.Length > 0)
            .Select(a => $"{(a.Key.Length > 0 ? a.Key : Topology)}: {a.Value.Last!.Problem}")
            .ToList();
        if (problems.Count > 0)
        {
            throw new IOException($"profiles of {Topology} on the agent's host: {string.Join("; ", problems)}");
        }
        return arriving.ToDictionary(
            a => a.Key,
            a =>
                (
                    FoldedStacks.Parse(new StringReader(a.Value.Text.ToString())),
                    TimeSpan.FromMicroseconds(a.Value.Last!.SampledMicroseconds),
                    a.Value.Last.RawBytes
                )
        );
    }

    /// <summary>Tells the agent to stop this topology's recordings without waiting for their stacks (a case that ended early; never throws).</summary>
    public async Task AbandonAsync()
    {
        try
        {
            await client.SendProfileAsync(
                new ProfileStopMessage(0, Topology).Encode(),
                TimeSpan.FromSeconds(5),
                CancellationToken.None
            );
        }
        catch (Exception e)
            when (e is IOException or TimeoutException or OperationCanceledException or ObjectDisposedException)
        {
            // The agent's end stops them.
        }
    }

    internal void OnChunk(ProfileChunkMessage chunk)
    {
        var (text, _) = arriving.GetOrAdd(chunk.Node, _ => (new StringBuilder(), null));
        text.Append(Encoding.UTF8.GetString(chunk.Text));
        if (chunk.Last)
        {
            arriving[chunk.Node] = (text, chunk);
            // A problem without a node (the agent did not know the topology) ends it; otherwise every node's last chunk.
            if (chunk.Node.Length == 0 || nodes.All(n => arriving.TryGetValue(n, out var a) && a.Last is not null))
            {
                folded?.TrySetResult(true);
            }
        }
    }
}
