using Lightning.Bench.Rpc;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>
/// Waits of a topology's setup, each bounded by the step timeout: when a check fails and a node has died, the wait
/// ends at once with the node's evidence instead of running out its time.
/// </summary>
public sealed class NodeWaits(NodeEvidence evidence, TimeSpan stepTimeout)
{
    public Task UntilAsync(string condition, Func<CancellationToken, Task<WaitState>> check, CancellationToken ct = default) =>
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
                await evidence.ThrowIfAnyDiedAsync(c);
                throw;
            }
        }, stepTimeout, ct);

    public Task ThrowIfAnyDiedAsync(CancellationToken ct = default) => evidence.ThrowIfAnyDiedAsync(ct);
}
