using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>
/// A swarm topology's nodes' cgroups, read by the agent on each node's host (<see cref="CostsRequestMessage"/>) with the
/// readers a single-host run uses; the wait for quiet nodes runs there too (<see cref="QuietRequestMessage"/>), so it
/// costs no round trip per reading. A reading is a round trip to each agent, the hosts asked at once: taken outside an
/// invocation's timing.
/// </summary>
internal sealed class RelayMeter(
    IReadOnlyList<(RelayClient Client, IReadOnlyList<CostTarget> Targets)> hosts,
    string? problem = null
) : INodeMeter
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan SettlePoll = TimeSpan.FromMilliseconds(20);

    public string? Problem { get; } = problem;

    /// <summary>A meter whose first reading worked, or one that says which node an agent could not read.</summary>
    /// <param name="hosts">Each host's agent with the nodes on that host.</param>
    public static async Task<RelayMeter> CreateAsync(
        IReadOnlyList<(RelayClient Client, IReadOnlyList<CostTarget> Targets)> hosts,
        CancellationToken ct = default
    )
    {
        try
        {
            var first = await ReadAllAsync(hosts, ct);
            var failed = first.FirstOrDefault(r => r.Problem.Length > 0);
            return new RelayMeter(hosts, failed is null ? null : $"{failed.Node}: {failed.Problem}");
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            return new RelayMeter(hosts, e.Message);
        }
    }

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct = default) =>
        (await TryReadAsync(ct)).Where(r => r.Problem.Length == 0).ToDictionary(r => r.Node, r => r.CpuNanoseconds);

    public async Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadResourcesAsync(
        CancellationToken ct = default
    ) =>
        (await TryReadAsync(ct))
            .Where(r => r.Problem.Length == 0 && r.Resources is not null)
            .ToDictionary(r => r.Node, r => r.Resources!);

    /// <summary>
    /// Each host's agent waits for its nodes, at once, with its share of the allowance (by its part of the nodes), so
    /// the nodes together stay within <paramref name="busyShare"/>: quiet when every host's nodes were, after the longest wait.
    /// </summary>
    public async Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(
        IReadOnlyDictionary<string, double>? idleNsPerSecond,
        TimeSpan quiet,
        double busyShare,
        TimeSpan limit,
        CancellationToken ct = default,
        TimeSpan? poll = null
    )
    {
        var nodes = hosts.Sum(h => h.Targets.Count);
        var waits = await Task.WhenAll(
            hosts.Select(h =>
                h.Client.WaitQuietAsync(
                    h.Targets,
                    quiet,
                    busyShare * h.Targets.Count / nodes,
                    limit,
                    poll ?? SettlePoll,
                    h.Targets.Sum(t => idleNsPerSecond?.GetValueOrDefault(t.Node) ?? 0),
                    Timeout,
                    ct
                )
            )
        );
        return (waits.Max(w => w.Waited), waits.All(w => w.Quiet));
    }

    /// <summary>Every host's readings, the hosts asked at once.</summary>
    private static async Task<IReadOnlyList<NodeCostReading>> ReadAllAsync(
        IReadOnlyList<(RelayClient Client, IReadOnlyList<CostTarget> Targets)> hosts,
        CancellationToken ct
    ) =>
        hosts.Count == 1
            ? await hosts[0].Client.ReadCostsAsync(hosts[0].Targets, Timeout, ct)
            : (await Task.WhenAll(hosts.Select(h => h.Client.ReadCostsAsync(h.Targets, Timeout, ct))))
                .SelectMany(r => r)
                .ToList();

    /// <summary>Empty when an agent cannot be asked (the topology is ending, or the connection is down: its reconnection is counted).</summary>
    private async Task<IReadOnlyList<NodeCostReading>> TryReadAsync(CancellationToken ct)
    {
        if (Problem is not null)
        {
            return [];
        }
        try
        {
            return await ReadAllAsync(hosts, ct);
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            return [];
        }
    }
}
