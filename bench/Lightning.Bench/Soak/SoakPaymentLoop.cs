using System.Diagnostics;
using Lightning.Bench.Cases;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak's payments: workers that each pay the topology's flows in turn through the case's <see cref="PaymentDriver"/>
/// until the soak's limit (a duration or a number of payments) or its stop, counting each payment into the
/// <see cref="SoakTally"/>; after each successful payment the <see cref="SoakRebalancer"/> may pay the flow back. A node
/// that dies stops the soak; what it measured is kept.
/// </summary>
internal sealed class SoakPaymentLoop(
    RunContext run,
    LightningNetwork network,
    PaymentDriver driver,
    SoakRebalancer rebalancer,
    SoakTally tally,
    Func<bool> profiling,
    SoakLimit limit,
    Stopwatch clock,
    CancellationTokenSource stop
)
{
    private long started;
    private string? stoppedBy;

    /// <summary>Why the payments stopped before the limit (a node's death), or null.</summary>
    public string? StoppedBy => Volatile.Read(ref stoppedBy);

    /// <summary>Pays with <paramref name="workers"/> payments in flight until the soak ends.</summary>
    public Task RunAsync(IReadOnlyList<PaymentFlow> flows, int workers) =>
        Task.WhenAll(Enumerable.Range(0, workers).Select(i => Task.Run(() => WorkAsync(flows, i))).ToList());

    private bool Done()
    {
        if (stop.IsCancellationRequested)
        {
            return true;
        }
        if (limit.Duration is { } duration && clock.Elapsed >= duration)
        {
            return true;
        }
        return limit.Payments is { } payments && Interlocked.Increment(ref started) > payments;
    }

    private async Task WorkAsync(IReadOnlyList<PaymentFlow> flows, int worker)
    {
        var amountMsat = run.Options.AmountMsat;
        var cursor = worker;
        while (!Done())
        {
            var flow = flows[cursor++ % flows.Count];
            var tag = new PaymentTag(run.Results.NextPaymentId());
            var watch = Stopwatch.StartNew();
            PaymentAttempt? attempt = null;
            try
            {
                await driver.PayAsync(flow, tag, amountMsat, a => Count(attempt = a, watch.Elapsed), stop.Token);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            if (attempt!.Outcome == OperationOutcome.Failed)
            {
                if (attempt.ConnectionLost && await NodeDiedAsync())
                {
                    return;
                }
                continue;
            }
            await rebalancer.AfterPaymentAsync(flow, amountMsat);
        }
    }

    /// <summary>Counted as it ends, so its latency is the payment's own; a payment cut off by the soak's stop is neither paid nor failed.</summary>
    private void Count(PaymentAttempt attempt, TimeSpan elapsed)
    {
        if (attempt.Cancelled)
        {
            return;
        }
        if (attempt.Outcome == OperationOutcome.Succeeded)
        {
            tally.Paid(elapsed.TotalMilliseconds, profiling());
        }
        else
        {
            tally.PaymentFailed();
        }
    }

    /// <summary>After a node closed its RPC socket: whether it died (the soak stops) or the soak is stopping anyway.</summary>
    private async Task<bool> NodeDiedAsync()
    {
        try
        {
            await network.ThrowIfNodeDiedAsync(stop.Token);
            return false;
        }
        catch (NodeDiedException died)
        {
            Interlocked.CompareExchange(ref stoppedBy, $"node {died.Node} exited with code {died.ExitCode}", null);
            run.Progress.Info($"soak: {died.Summary}: ending the soak, what it measured is kept");
            stop.Cancel();
            return true;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Another worker found the death first (or the soak was stopped meanwhile): this one ends too.
            return true;
        }
    }
}
