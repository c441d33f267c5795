using System.Diagnostics;
using System.Globalization;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Run;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak: one case's payments driven continuously on one topology (as many in flight as one invocation of the case
/// starts), sampled every --sample-interval into soak.csv (payments and latency per window) and soak-nodes.csv (each
/// node's CPU, memory, storage writes, database size, open files), written as it goes; at the end (time or payment
/// count reached, Ctrl+C, a node's death) the report (<see cref="SoakReport"/>). Memory stays bounded: payments are
/// counted into the current window and a latency histogram, never kept.
/// Payments drain the payer's side of a channel, so whenever a flow has sent 40 % of the topology's smallest channel
/// since the last time, its payee pays all but 5 % of the channel back in one payment (a rebalance: counted in
/// soak.csv, not as a payment; see <see cref="RebalancePlan"/>).
/// </summary>
internal sealed class SoakRun
{
    public const string WindowsFile = "soak.csv";
    public const string NodesFile = "soak-nodes.csv";
    private const double RebalanceShare = 0.4;
    private const double RebalanceKeep = 0.05;
    private readonly RunContext run;
    private readonly object gate = new();
    private readonly object sampling = new();
    private bool closed;
    private readonly LatencyHistogram overall = new();
    private readonly CancellationTokenSource stop;
    private readonly Stopwatch clock = new();
    private List<double> window = [];
    private long windowFailed;
    private long windowRebalances;
    private long succeeded;
    private long failed;
    private long started;
    private string? stoppedBy;
    private Task<bool>? finishing;
    private CaseLifecycle? lifecycle;
    private StreamWriter? windows;
    private StreamWriter? nodes;
    private readonly Dictionary<string, NodeResources> readers = new();
    private readonly Dictionary<string, NodeResourceSample> previous = new();
    private double previousSeconds;
    private SoakProfiler? profiler;
    private (long Count, double SumMs) sampledPayments;
    private (long Count, double SumMs) unsampledPayments;

    public SoakRun(RunContext run)
    {
        this.run = run;
        stop = CancellationTokenSource.CreateLinkedTokenSource(run.Cancellation);
    }

    public SoakLimit Limit => run.Options.Soak ?? throw new InvalidOperationException("not a soak run");

    /// <summary>Runs the soak to its end and writes the report; true when every budget held.</summary>
    public async Task<bool> RunAsync()
    {
        var definition = ScenarioBenchmark.SoakCase(run.Scenario.BenchmarkType);
        run.Progress.Info($"soak: {definition.Key}, {definition.PaymentsPerInvocation} payment(s) in flight, for {Limit}; sampling every {run.Options.SampleInterval.TotalSeconds:0} s (Ctrl+C ends it early and keeps everything)");
        lifecycle = await CaseLifecycle.StartAsync(run, definition);
        var network = lifecycle.Network;
        foreach (var (name, id) in network.Containers)
        {
            var spec = definition.Topology.Nodes.FirstOrDefault(n => n.Name == name);
            var directory = network.Layout.NodeDirectory(name);
            Func<IReadOnlyList<string>>? data = spec is null ? null : () => run.Kinds.Get(spec.Kind).DataFiles(directory);
            var (reader, problem) = await NodeResources.OfContainerAsync(run.Engine, id, data, run.Cancellation);
            if (reader is null)
            {
                run.Progress.Info($"soak: no resources of {name}: {problem}");
                continue;
            }
            readers[name] = reader;
        }
        Directory.CreateDirectory(run.ResultsDirectory);
        windows = new StreamWriter(Path.Combine(run.ResultsDirectory, WindowsFile));
        await windows.WriteLineAsync("elapsed_s,payments_total,payments,failed,rebalances,payments_per_s,mean_ms,p50_ms,p95_ms,p99_ms,harness_rss_mb");
        nodes = new StreamWriter(Path.Combine(run.ResultsDirectory, NodesFile));
        await nodes.WriteLineAsync("elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes");
        clock.Start();
        Sample(network);

        var flows = definition.Topology.Flows;
        var rebalance = RebalancePlan(definition.Topology);
        var sentSinceRebalance = flows.ToDictionary(f => f, _ => 0L);
        var workers = Enumerable.Range(0, definition.PaymentsPerInvocation)
            .Select(i => Task.Run(() => WorkAsync(network, flows, i, sentSinceRebalance, rebalance)))
            .ToList();
        var sampler = Task.Run(() => SampleLoopAsync(network));
        var profiling = Task.CompletedTask;
        if (run.Profiling is { } perf)
        {
            profiler = new SoakProfiler(run, perf, network, definition.Topology.Nodes.Select(n => n.Name).ToList(), () =>
            {
                lock (gate)
                {
                    return succeeded;
                }
            }, clock, run.Options.ProfileEvery ?? SoakProfiler.DefaultEvery(Limit), Limit.Duration);
            run.Progress.Info($"soak: profiling every node for {SoakProfiler.WindowLength.TotalSeconds:0} s every {profiler.Every.TotalMinutes:0.#} min");
            profiling = Task.Run(() => profiler.RunAsync(stop.Token));
        }
        try
        {
            await Task.WhenAll(workers);
        }
        finally
        {
            stop.Cancel();
            await sampler;
            await profiling;
        }
        return await FinishAsync();
    }

    /// <summary>Ends the soak and writes the report once, whoever asks first (the normal end or Ctrl+C); true when every budget held.</summary>
    public Task<bool> FinishAsync()
    {
        lock (gate)
        {
            return finishing ??= Task.Run(async () =>
            {
                stop.Cancel();
                stoppedBy ??= run.Cancellation.IsCancellationRequested ? "interrupted (Ctrl+C or SIGTERM)" : null;
                if (windows is null || lifecycle is null)
                {
                    return true;
                }
                try
                {
                    Sample(lifecycle.Network, last: true);
                }
                catch (Exception e) when (e is IOException or InvalidOperationException)
                {
                    // The topology is already gone: the last full window stands.
                    lock (sampling)
                    {
                        closed = true;
                    }
                }
                await windows.DisposeAsync();
                await nodes!.DisposeAsync();
                var report = SoakReport.Write(run.ResultsDirectory, new SoakFacts(
                    run.Scenario.Name, Limit.ToString(), clock.Elapsed, succeeded, failed, overall, lifecycle.IdleCpu,
                    run.Options.Budgets, run.Options.ThresholdPercent, stoppedBy, run.Options.SampleInterval));
                run.Progress.Info($"soak: {succeeded} payments ({failed} failed) in {clock.Elapsed.TotalMinutes:0.0} min; report {Path.Combine(run.ResultsDirectory, SoakReport.FileName)}");
                foreach (var line in report.Lines)
                {
                    run.Progress.Info($"soak: {line}");
                }
                WriteProfiles();
                return report.BudgetsHeld;
            });
        }
    }

    /// <summary>The profile windows' report (profiles/profiles.md), when the soak was profiled.</summary>
    private void WriteProfiles()
    {
        if (profiler is null || run.Profiling is not { } profiling)
        {
            return;
        }
        var windows = profiler.Windows;
        run.Results.SoakProfiles = windows;
        if (windows.Count == 0)
        {
            run.Progress.Info($"soak: no profile window closed{(profiler.Problem is null ? $" (the first opens after {profiler.Every.TotalMinutes:0.#} min)" : $": {profiler.Problem}")}");
            return;
        }
        (long, double) Mean((long Count, double SumMs) p) => (p.Count, p.Count > 0 ? p.SumMs / p.Count : double.NaN);
        (long, double) sampled, unsampled;
        lock (gate)
        {
            (sampled, unsampled) = (Mean(sampledPayments), Mean(unsampledPayments));
        }
        var lines = SoakProfileReport.Write(run.ResultsDirectory, windows, profiling.Settings, profiling.PerfVersion, run.Options.ThresholdPercent,
            profiler.Every, sampled, unsampled);
        run.Progress.Info($"soak: {windows.Count} profile windows; {Path.Combine(run.ResultsDirectory, Profiling.ProfileFiles.Folder, Reports.ProfileReport.FileName)}");
        foreach (var line in lines)
        {
            run.Progress.Info($"soak: profile: {line}");
        }
    }

    /// <summary>Tears the soak's topology down (after <see cref="FinishAsync"/>).</summary>
    public async Task EndAsync()
    {
        if (lifecycle is not null)
        {
            await lifecycle.EndAsync();
        }
    }

    private bool Done()
    {
        if (stop.IsCancellationRequested)
        {
            return true;
        }
        if (Limit.Duration is { } duration && clock.Elapsed >= duration)
        {
            return true;
        }
        return Limit.Payments is { } payments && Interlocked.Increment(ref started) > payments;
    }

    private async Task WorkAsync(LightningNetwork network, IReadOnlyList<PaymentFlow> flows, int worker,
        Dictionary<PaymentFlow, long> sentSinceRebalance, (long AtMsat, long KeepMsat) rebalance)
    {
        var cursor = worker;
        while (!Done())
        {
            var flow = flows[cursor++ % flows.Count];
            var id = run.Results.NextPaymentId();
            var tag = new PaymentTag(id);
            var watch = Stopwatch.StartNew();
            try
            {
                var invoice = await network.Nodes[flow.Payee].CreateInvoiceAsync(run.Options.AmountMsat, $"lnbench-{run.RunId}-{id}", $"lnbench soak payment {id}", tag, stop.Token);
                await network.Nodes[flow.Payer].PayAsync(invoice, tag, stop.Token);
                Record(watch.Elapsed.TotalMilliseconds, ok: true);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (NodeCallException e)
            {
                Record(0, ok: false);
                if (e.Failure == NodeCallFailure.ConnectionLost)
                {
                    try
                    {
                        await network.ThrowIfNodeDiedAsync(stop.Token);
                    }
                    catch (NodeDiedException died)
                    {
                        stoppedBy ??= $"node {died.Node} exited with code {died.ExitCode}";
                        run.Progress.Info($"soak: {died.Summary}: ending the soak, what it measured is kept");
                        stop.Cancel();
                        return;
                    }
                }
                continue;
            }
            long payBack = 0;
            lock (sentSinceRebalance)
            {
                sentSinceRebalance[flow] += run.Options.AmountMsat;
                if (sentSinceRebalance[flow] >= rebalance.AtMsat)
                {
                    // Pay back all but a margin that covers the payee's channel reserve and fees.
                    payBack = sentSinceRebalance[flow] - rebalance.KeepMsat;
                    sentSinceRebalance[flow] = rebalance.KeepMsat;
                }
            }
            if (payBack > 0 && !await RebalanceAsync(network, flow, payBack))
            {
                lock (sentSinceRebalance)
                {
                    sentSinceRebalance[flow] += payBack; // tried again after the next payment
                }
            }
        }
    }

    /// <summary>The payee pays the payer back; false when it could not.</summary>
    private async Task<bool> RebalanceAsync(LightningNetwork network, PaymentFlow flow, long amountMsat)
    {
        var id = run.Results.NextPaymentId();
        var tag = new PaymentTag(id, InSetup: true);
        try
        {
            var invoice = await network.Nodes[flow.Payer].CreateInvoiceAsync(amountMsat, $"lnbench-{run.RunId}-rebalance-{id}", $"lnbench soak rebalance {id}", tag, stop.Token);
            await network.Nodes[flow.Payee].PayAsync(invoice, tag, stop.Token);
            lock (gate)
            {
                windowRebalances++;
            }
            return true;
        }
        catch (NodeCallException e)
        {
            run.Progress.Info($"soak: {flow.Payee} could not pay {amountMsat / 1000} sat back to {flow.Payer} ({e.Message}); trying again after the next payment");
            return false;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return true;
        }
    }

    /// <summary>
    /// When a flow has sent 40 % of the topology's smallest channel, its payee pays back all but 5 % of the channel
    /// (its reserve, 1 %, and fees stay covered).
    /// </summary>
    public static (long AtMsat, long KeepMsat) RebalancePlan(TopologySpec topology)
    {
        var capacityMsat = topology.Channels.Min(c => c.CapacitySat) * 1000;
        return ((long)(capacityMsat * RebalanceShare), (long)(capacityMsat * RebalanceKeep));
    }

    private void Record(double milliseconds, bool ok)
    {
        lock (gate)
        {
            if (ok)
            {
                window.Add(milliseconds);
                overall.Add(milliseconds);
                succeeded++;
                if (profiler is { Sampling: true })
                {
                    sampledPayments = (sampledPayments.Count + 1, sampledPayments.SumMs + milliseconds);
                }
                else
                {
                    unsampledPayments = (unsampledPayments.Count + 1, unsampledPayments.SumMs + milliseconds);
                }
            }
            else
            {
                windowFailed++;
                failed++;
            }
        }
    }

    private async Task SampleLoopAsync(LightningNetwork network)
    {
        var lastProgress = TimeSpan.Zero;
        using var timer = new PeriodicTimer(run.Options.SampleInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(stop.Token))
            {
                var line = Sample(network);
                if (clock.Elapsed - lastProgress >= TimeSpan.FromMinutes(1))
                {
                    lastProgress = clock.Elapsed;
                    run.Progress.Info($"soak {Format(clock.Elapsed)} of {Limit}: {line}");
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
        catch (Exception e) when (e is IOException or InvalidOperationException)
        {
            run.Progress.Info($"soak: sampling stopped ({e.Message})");
        }
    }

    private static string Format(TimeSpan t) => $"{(int)t.TotalHours}:{t.Minutes:00}:{t.Seconds:00}";

    /// <summary>Closes the current window: one row of soak.csv and one of soak-nodes.csv per node, flushed.</summary>
    private string Sample(LightningNetwork network, bool last = false)
    {
        lock (sampling)
        {
            if (closed)
            {
                return "";
            }
            closed = last;
            return SampleLocked(network);
        }
    }

    private string SampleLocked(LightningNetwork network)
    {
        List<double> latencies;
        long windowFailures, rebalances, total;
        var seconds = clock.Elapsed.TotalSeconds;
        lock (gate)
        {
            latencies = window;
            window = [];
            windowFailures = windowFailed;
            windowFailed = 0;
            rebalances = windowRebalances;
            windowRebalances = 0;
            total = succeeded;
        }
        var span = seconds - previousSeconds;
        string Q(double p) => latencies.Count == 0 ? "" : F(CaseFigures.Percentile(latencies, p));
        var pps = span > 0 ? latencies.Count / span : 0;
        var rss = Process.GetCurrentProcess().WorkingSet64 / 1048576.0;
        if (span > 0 || seconds == 0)
        {
            windows!.WriteLine(string.Join(",", F(seconds), total, latencies.Count, windowFailures, rebalances, F(pps),
                latencies.Count == 0 ? "" : F(latencies.Average()), Q(0.5), Q(0.95), Q(0.99), F(rss)));
        }
        var idle = lifecycle?.IdleCpu;
        var parts = new List<string>();
        foreach (var (name, reader) in readers)
        {
            NodeResourceSample sample;
            try
            {
                sample = reader.Read();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
            {
                continue;
            }
            var cpuPercent = "";
            var cpuPerPayment = "";
            if (previous.TryGetValue(name, out var before) && span > 0)
            {
                var cpuNs = sample.CpuNanoseconds - before.CpuNanoseconds;
                cpuPercent = F(cpuNs / (span * 1e9) * 100);
                var aboveIdle = cpuNs - (idle?.GetValueOrDefault(name) ?? 0) * span;
                cpuPerPayment = latencies.Count > 0 && idle?.ContainsKey(name) == true ? F(aboveIdle / 1e6 / latencies.Count) : "";
            }
            previous[name] = sample;
            nodes!.WriteLine(string.Join(",", F(seconds), total, name, cpuPercent, cpuPerPayment, F(sample.RssBytes / 1048576.0),
                F(sample.MemoryBytes / 1048576.0), F(sample.PeakBytes / 1048576.0), F(sample.WrittenBytes / 1048576.0),
                F(sample.DataBytes / 1048576.0), sample.OpenFiles, sample.Processes));
            parts.Add($"{name} {sample.RssBytes / 1048576.0:0} MB");
        }
        windows!.Flush();
        nodes!.Flush();
        previousSeconds = seconds;
        var p95 = latencies.Count == 0 ? "-" : CaseFigures.Percentile(latencies, 0.95).ToString("0", CultureInfo.InvariantCulture);
        return $"{total} payments, {pps:0.0}/s, p95 {p95} ms, rss {string.Join(", ", parts)}";
    }

    private static string F(double value) => double.IsFinite(value) ? value.ToString("0.###", CultureInfo.InvariantCulture) : "";
}
