using Lightning.Bench.Network;

namespace Lightning.Bench.Relay;

/// <summary>
/// A swarm topology's nodes' cgroups, read by the agent on their host (<see cref="CostsRequestMessage"/>) with the
/// readers a single-host run uses; the wait for quiet nodes runs there too (<see cref="QuietRequestMessage"/>), so it
/// costs no round trip per reading. A reading is a round trip to the agent: taken outside an invocation's timing.
/// </summary>
internal sealed class RelayMeter(RelayClient client, IReadOnlyList<CostTarget> targets, string? problem = null) : INodeMeter
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan SettlePoll = TimeSpan.FromMilliseconds(20);

    public string? Problem { get; } = problem;

    /// <summary>A meter whose first reading worked, or one that says which node the agent could not read.</summary>
    public static async Task<RelayMeter> CreateAsync(RelayClient client, IReadOnlyList<CostTarget> targets, CancellationToken ct = default)
    {
        try
        {
            var first = await client.ReadCostsAsync(targets, Timeout, ct);
            var failed = first.FirstOrDefault(r => r.Problem.Length > 0);
            return new RelayMeter(client, targets, failed is null ? null : $"{failed.Node}: {failed.Problem}");
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            return new RelayMeter(client, targets, e.Message);
        }
    }

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken ct = default) =>
        (await TryReadAsync(ct)).Where(r => r.Problem.Length == 0).ToDictionary(r => r.Node, r => r.CpuNanoseconds);

    public async Task<IReadOnlyDictionary<string, NodeResourceSample>> ReadResourcesAsync(CancellationToken ct = default) =>
        (await TryReadAsync(ct)).Where(r => r.Problem.Length == 0 && r.Resources is not null).ToDictionary(r => r.Node, r => r.Resources!);

    public Task<(TimeSpan Waited, bool Quiet)> WaitQuietAsync(IReadOnlyDictionary<string, double>? idleNsPerSecond,
        TimeSpan quiet, double busyShare, TimeSpan limit, CancellationToken ct = default, TimeSpan? poll = null) =>
        client.WaitQuietAsync(targets, quiet, busyShare, limit, poll ?? SettlePoll, idleNsPerSecond?.Values.Sum() ?? 0, Timeout, ct);

    /// <summary>Empty when the agent cannot be asked (the topology is ending, or the connection is down: its reconnection is counted).</summary>
    private async Task<IReadOnlyList<NodeCostReading>> TryReadAsync(CancellationToken ct)
    {
        if (Problem is not null)
        {
            return [];
        }
        try
        {
            return await client.ReadCostsAsync(targets, Timeout, ct);
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            return [];
        }
    }
}
