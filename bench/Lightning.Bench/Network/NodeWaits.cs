using Lightning.Bench.NodeKinds;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// Waits of a topology's setup, each bounded by the step timeout: when a check fails and a node has died, the wait
/// ends at once with the node's evidence instead of running out its time.
/// </summary>
internal sealed class NodeWaits(NodeEvidence evidence, TimeSpan stepTimeout)
{
    /// <summary>
    /// Setup's steps wait on each other, so a poll's delay adds straight to every topology's setup (250 ms cost up to a
    /// quarter second a step); a look is one cheap RPC call.
    /// </summary>
    public static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    public Task UntilAsync(
        string condition,
        Func<CancellationToken, Task<WaitState>> check,
        CancellationToken ct = default
    ) =>
        Wait.UntilAsync(
            condition,
            async c =>
            {
                try
                {
                    return await check(c);
                }
                catch (NodeCallException e) when (e.Failure == NodeCallFailure.Unsupported)
                {
                    // Asking again cannot help: the node does not know the call (an older or newer build).
                    throw new WaitAbortedException($"{condition}: {e.Message}");
                }
                catch (Exception e) when (e is not OperationCanceledException and not WaitAbortedException)
                {
                    await evidence.ThrowIfAnyDiedAsync(c);
                    throw;
                }
            },
            stepTimeout,
            ct,
            PollInterval
        );

    public Task ThrowIfAnyDiedAsync(CancellationToken ct = default) => evidence.ThrowIfAnyDiedAsync(ct);
}
