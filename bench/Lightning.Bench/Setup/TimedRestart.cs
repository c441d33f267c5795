using Lightning.Bench.Network;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Setup;

/// <summary>
/// A node stopped, changed while it is stopped (a history written, a graph appended), started again and timed as setup
/// steps: "restart rpc" (until its RPC answers) and "restart channels" (until every channel of it is usable again; its
/// peers dialled from it first, so a peer's reconnect backoff is not timed).
/// </summary>
internal static class TimedRestart
{
    /// <param name="what">What is done while it is stopped, for the progress line ("writing its history").</param>
    /// <returns>From its start to its RPC answering.</returns>
    public static async Task<TimeSpan> RestartAsync(
        LightningNetwork network,
        RunProgress progress,
        TopologySpec topology,
        string node,
        string what,
        Func<CancellationToken, Task> whileStopped,
        SetupTimes.Clock clock,
        CancellationToken ct
    )
    {
        TimeSpan rpc;
        using (progress.Begin($"{node}: stopping it, {what}, starting it"))
        {
            rpc = await network.RestartNodeAsync(node, whileStopped, ct);
        }
        clock.Lap($"{SetupStep.RestartPrefix} rpc");
        using (
            progress.Begin(
                $"{node}: restarted, its RPC answering after {rpc.TotalSeconds:0.0} s; waiting until its channels are usable again"
            )
        )
        {
            await network.RedialPeersAsync(node, ct);
            await new ChannelOpener(network, progress).WaitUsableAsync(topology, node, ct);
        }
        clock.Lap($"{SetupStep.RestartPrefix} channels");
        return rpc;
    }
}
