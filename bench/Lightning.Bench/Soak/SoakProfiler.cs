using System.Diagnostics;
using Lightning.Bench.Network;
using Lightning.Bench.Profiling;
using Lightning.Bench.Run;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak's profiles: every <see cref="Every"/> a window of <see cref="WindowLength"/> in which each Lightning node's
/// stacks are sampled (the run's perf settings), folded at once into profiles/soak-window-NNN/NODE.folded so that a soak
/// of any length keeps no raw recording. Payments made inside windows are told apart, so the report can say what
/// sampling cost.
/// </summary>
public sealed class SoakProfiler(RunContext run, RunProfiling profiling, LightningNetwork network, IReadOnlyList<string> nodes,
    Func<long> payments, Stopwatch clock, TimeSpan every)
{
    /// <summary>Long enough for hundreds of samples per node at 99 Hz, short against the minutes between windows.</summary>
    public static readonly TimeSpan WindowLength = TimeSpan.FromSeconds(10);

    private readonly List<SoakProfileWindow> windows = new();
    private volatile bool sampling;

    public TimeSpan Every => every;

    /// <summary>Whether a window is sampling now (payments ending now are "sampled").</summary>
    public bool Sampling => sampling;

    /// <summary>Why the soak's profiling stopped early, or null.</summary>
    public string? Problem { get; private set; }

    public IReadOnlyList<SoakProfileWindow> Windows
    {
        get
        {
            lock (windows)
            {
                return windows.ToList();
            }
        }
    }

    /// <summary>The default spacing: a twentieth of a timed soak (at least a minute), else every 5 minutes.</summary>
    public static TimeSpan DefaultEvery(SoakLimit limit) =>
        limit.Duration is { } duration ? TimeSpan.FromTicks(Math.Max(TimeSpan.FromMinutes(1).Ticks, duration.Ticks / 20)) : TimeSpan.FromMinutes(5);

    /// <summary>Profiles windows until <paramref name="stop"/>; a window the soak's end cuts short is dropped.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        var containers = nodes.ToDictionary(n => n, n => network.Containers[n]);
        for (var number = 1; !stop.IsCancellationRequested; number++)
        {
            var wait = every * number - clock.Elapsed;
            try
            {
                if (wait > TimeSpan.Zero)
                {
                    await Task.Delay(wait, stop);
                }
                await WindowAsync(number, containers, stop);
            }
            catch (OperationCanceledException)
            {
                return;
            }
            catch (Exception e) when (e is IOException or TimeoutException or UnauthorizedAccessException or InvalidDataException)
            {
                Problem = e.Message;
                run.Progress.Info($"soak: profiling stopped ({e.Message})");
                return;
            }
        }
    }

    private async Task WindowAsync(int number, IReadOnlyDictionary<string, string> containers, CancellationToken stop)
    {
        var folder = $"soak-window-{number:000}";
        var profiler = await profiling.StartCaseAsync(run.Engine, containers, folder, stop);
        try
        {
            var start = clock.Elapsed.TotalSeconds;
            await profiler.EnableAsync(stop);
            sampling = true;
            var before = payments();
            try
            {
                await Task.Delay(WindowLength, stop);
            }
            finally
            {
                sampling = false;
                await profiler.DisableAsync(CancellationToken.None);
            }
            var made = (int)(payments() - before);
            var folded = await profiler.StopAndFoldAsync(run.Cancellation);
            var records = ProfileFiles.Write(run.ResultsDirectory, folder, folded, made);
            lock (windows)
            {
                windows.Add(new SoakProfileWindow(number, start, before, records));
            }
        }
        finally
        {
            await profiling.ReleaseAsync(profiler);
        }
    }
}
