using System.Diagnostics;
using System.Globalization;
using Lightning.Bench.Cases;
using Lightning.Bench.Network;
using Lightning.Bench.Options;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Soak;

/// <summary>
/// Closes a soak's windows: at its start, every --sample-interval and at its end, the payments counted since the last
/// window become one row of soak.csv, and each node's resources one row of soak-nodes.csv (its CPU as a share of the
/// window and per payment above its idle rate); once a minute at most, a line of progress.
/// </summary>
internal sealed class SoakSampler(
    RunContext run,
    SoakTally tally,
    IReadOnlyDictionary<string, NodeResources> readers,
    IReadOnlyDictionary<string, double>? idleCpu,
    SoakWindowsCsv windows,
    SoakNodesCsv nodes,
    Stopwatch clock,
    SoakLimit limit
)
{
    private readonly object gate = new();
    private readonly Dictionary<string, NodeResourceSample> previous = new();
    private bool closed;
    private double previousSeconds;

    /// <summary>A reader of each node's resources; a node whose resources cannot be read is said so and left out.</summary>
    public static async Task<IReadOnlyDictionary<string, NodeResources>> ReadersAsync(
        RunContext run,
        TopologySpec topology,
        LightningNetwork network
    )
    {
        var readers = new Dictionary<string, NodeResources>();
        foreach (var (name, id) in network.Containers)
        {
            var spec = topology.Nodes.FirstOrDefault(n => n.Name == name);
            var directory = network.Layout.NodeDirectory(name);
            Func<IReadOnlyList<string>>? data = spec is null
                ? null
                : () => run.Kinds.Get(spec.Kind).DataFiles(directory);
            var (reader, problem) = await NodeResources.OfContainerAsync(run.Engine, id, data, run.Cancellation);
            if (reader is null)
            {
                run.Progress.Info($"soak: no resources of {name}: {problem}");
                continue;
            }
            readers[name] = reader;
        }
        return readers;
    }

    /// <summary>Samples every --sample-interval until <paramref name="stop"/>; a sample the files refuse ends the sampling, not the soak.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        var lastProgress = TimeSpan.Zero;
        using var timer = new PeriodicTimer(run.Options.SampleInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                var line = Sample();
                if (clock.Elapsed - lastProgress >= TimeSpan.FromMinutes(1))
                {
                    lastProgress = clock.Elapsed;
                    run.Progress.Info($"soak {Format(clock.Elapsed)} of {limit}: {line}");
                }
            }
        }
        catch (OperationCanceledException) { }
        catch (Exception e) when (e is IOException or InvalidOperationException)
        {
            run.Progress.Info($"soak: sampling stopped ({e.Message})");
        }
    }

    /// <summary>Closes the current window; returns its line of progress (empty once the files are closed).</summary>
    public string Sample() => Sample(last: false);

    /// <summary>Closes the last window, then the files; when the topology is already gone, the last full window stands.</summary>
    public async Task CloseAsync()
    {
        try
        {
            Sample(last: true);
        }
        catch (Exception e) when (e is IOException or InvalidOperationException)
        {
            lock (gate)
            {
                closed = true;
            }
        }
        await windows.DisposeAsync();
        await nodes.DisposeAsync();
    }

    private string Sample(bool last)
    {
        lock (gate)
        {
            if (closed)
            {
                return "";
            }
            closed = last;
            return SampleLocked();
        }
    }

    private string SampleLocked()
    {
        var seconds = clock.Elapsed.TotalSeconds;
        var window = tally.TakeWindow();
        var latencies = window.Latencies;
        var span = seconds - previousSeconds;
        var pps = span > 0 ? latencies.Count / span : 0;
        var rss = Process.GetCurrentProcess().WorkingSet64 / 1048576.0;
        if (span > 0 || seconds == 0)
        {
            windows.Write(seconds, window, pps, rss);
        }
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
            var cpuPercent = double.NaN;
            var cpuPerPayment = double.NaN;
            if (previous.TryGetValue(name, out var before) && span > 0)
            {
                var cpuNs = sample.CpuNanoseconds - before.CpuNanoseconds;
                cpuPercent = cpuNs / (span * 1e9) * 100;
                var aboveIdle = cpuNs - (idleCpu?.GetValueOrDefault(name) ?? 0) * span;
                cpuPerPayment =
                    latencies.Count > 0 && idleCpu?.ContainsKey(name) == true
                        ? aboveIdle / 1e6 / latencies.Count
                        : double.NaN;
            }
            previous[name] = sample;
            nodes.Write(seconds, window.PaymentsTotal, name, cpuPercent, cpuPerPayment, sample);
            parts.Add($"{name} {sample.RssBytes / 1048576.0:0} MB");
        }
        windows.Flush();
        nodes.Flush();
        previousSeconds = seconds;
        var p95 =
            latencies.Count == 0
                ? "-"
                : CaseFigures.Percentile(latencies, 0.95).ToString("0", CultureInfo.InvariantCulture);
        return $"{window.PaymentsTotal} payments, {pps:0.0}/s, p95 {p95} ms, rss {string.Join(", ", parts)}";
    }

    private static string Format(TimeSpan t) => $"{(int)t.TotalHours}:{t.Minutes:00}:{t.Seconds:00}";
}
