using System.Diagnostics;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// --probe: alongside the workload, each Lightning node is asked a cheap RPC (<see cref="ILightningNode.PingAsync"/>:
/// Core Lightning's help for one command, LND's GetInfo) every interval, one call at a time, from before the first invocation to the case's end; each answer's
/// latency is kept with the invocation it started in (<see cref="ProbeSample"/>), so a node that freezes under load or
/// while it digests its history shows as a slow answer and a long stall. A call slower than the interval delays the
/// next (calls never pile up); its calls cost the nodes some CPU, inside the measured invocations and in the idle
/// window alike.
/// </summary>
internal sealed class ResponsivenessProbe(
    IReadOnlyDictionary<string, ILightningNode> nodes,
    TimeSpan interval,
    CaseResults results
) : CaseInstrument
{
    /// <summary>How long one call may wait for its answer before it counts as unanswered.</summary>
    public static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(60);

    private readonly CancellationTokenSource stop = new();
    private readonly List<Task> loops = new();
    private volatile Invocation? current;

    public override Task MeasureIdleBeforeAsync(CancellationToken ct)
    {
        Start();
        return Task.CompletedTask;
    }

    public override Task StartAsync(CancellationToken ct)
    {
        Start();
        return Task.CompletedTask;
    }

    public override Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        current = invocation;
        return Task.CompletedTask;
    }

    public override Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        current = null;
        return Task.CompletedTask;
    }

    public override async Task EndAsync(CancellationToken ct) => await StopAsync();

    public override async ValueTask ReleaseAsync() => await StopAsync();

    private void Start()
    {
        lock (loops)
        {
            if (loops.Count == 0 && !stop.IsCancellationRequested)
            {
                loops.AddRange(nodes.Values.Select(node => Task.Run(() => ProbeAsync(node, stop.Token))));
            }
        }
    }

    private async Task StopAsync()
    {
        Task[] running;
        lock (loops)
        {
            running = [.. loops];
            if (!stop.IsCancellationRequested)
            {
                stop.Cancel();
            }
        }
        await Task.WhenAll(running);
    }

    private async Task ProbeAsync(ILightningNode node, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        var next = TimeSpan.Zero;
        while (!ct.IsCancellationRequested)
        {
            var invocation = current;
            var started = DateTimeOffset.UtcNow;
            var before = clock.Elapsed;
            string? error = null;
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
                timeout.CancelAfter(CallTimeout);
                await node.PingAsync(timeout.Token);
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e)
            {
                error = e is OperationCanceledException ? $"no answer in {CallTimeout.TotalSeconds:0} s" : e.Message;
            }
            var latency = clock.Elapsed - before;
            results.RecordProbe(
                new ProbeSample(
                    node.Name,
                    invocation?.Number ?? 0,
                    invocation?.Measured ?? false,
                    (started - DateTimeOffset.UnixEpoch).Ticks / 10,
                    latency.TotalMilliseconds,
                    error
                )
            );
            next += interval;
            if (next < clock.Elapsed)
            {
                next = clock.Elapsed;
            }
            try
            {
                await Task.Delay(next - clock.Elapsed, ct);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }
}
