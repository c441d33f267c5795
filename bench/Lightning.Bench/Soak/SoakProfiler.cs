using System.Diagnostics;
using Lightning.Bench.Cases;
using Lightning.Bench.Network;
using Lightning.Bench.Options;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak's profiles: windows of <see cref="WindowLength"/> opening at <see cref="Every"/>, 2×, 3×… into the soak, in
/// which each Lightning node's stacks are sampled (the run's perf settings), each folded as it closes into
/// profiles/soak-window-NNN/NODE.folded so that a soak of any length keeps no raw recording. The schedule is the
/// soak's clock, not the machine's speed: a window's perf starts (switched off) ahead of its time and folding runs
/// behind the next window, so a slow fold neither delays nor drops a window. A window that would outlast a timed soak is
/// not opened; one cut short by an early end (Ctrl+C, a node's death, a count of payments reached) is dropped.
/// Payments made inside windows are told apart, so the report can say what sampling cost.
/// </summary>
internal sealed class SoakProfiler(
    RunContext run,
    RunProfiling profiling,
    LightningNetwork network,
    IReadOnlyList<string> nodes,
    Func<long> payments,
    Stopwatch clock,
    TimeSpan every,
    TimeSpan? soakDuration
)
{
    /// <summary>See <see cref="ProfileSettings.SoakWindowLength"/>.</summary>
    public static readonly TimeSpan WindowLength = ProfileSettings.SoakWindowLength;

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
        limit.Duration is { } duration
            ? TimeSpan.FromTicks(Math.Max(TimeSpan.FromMinutes(1).Ticks, duration.Ticks / 20))
            : TimeSpan.FromMinutes(5);

    /// <summary>Profiles windows until <paramref name="stop"/> or until the next would outlast a timed soak; returns once every closed window is folded.</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        var containers = nodes.ToDictionary(n => n, n => network.Containers[n]);
        var folding = Task.CompletedTask;
        ICaseProfiler? ready = null;
        try
        {
            for (var number = 1; !stop.IsCancellationRequested && Problem is null; number++)
            {
                var opens = every * number;
                var closes = opens + WindowLength;
                if (soakDuration is { } duration && closes > duration)
                {
                    break;
                }
                var folder = Folder(number);
                ready = await profiling.StartCaseAsync(run.Engine, containers, folder, stop);
                await DelayUntilAsync(opens, stop);
                var (start, before, made) = await SampleAsync(ready, closes, stop);
                var closed = ready;
                ready = null;
                folding = FoldAsync(folding, closed, number, start, before, made);
            }
        }
        catch (OperationCanceledException)
        {
            // The soak ended inside a window or before it opened: that window is dropped.
        }
        catch (Exception e)
            when (e is IOException or TimeoutException or UnauthorizedAccessException or InvalidDataException)
        {
            Stopped(e);
        }
        finally
        {
            if (ready is not null)
            {
                await profiling.ReleaseAsync(ready);
            }
            await folding;
        }
    }

    private static string Folder(int number) => $"soak-window-{number:000}";

    /// <summary>Samples from now until <paramref name="closes"/> on the soak's clock; the window's start and its payments.</summary>
    private async Task<(double Start, long Before, int Made)> SampleAsync(
        ICaseProfiler profiler,
        TimeSpan closes,
        CancellationToken stop
    )
    {
        var start = clock.Elapsed.TotalSeconds;
        await profiler.EnableAsync(stop);
        sampling = true;
        var before = payments();
        try
        {
            await DelayUntilAsync(closes, stop);
        }
        catch (OperationCanceledException) when (clock.Elapsed >= closes)
        {
            // The soak ended as the window closed: the window is whole.
        }
        finally
        {
            sampling = false;
            await profiler.DisableAsync(CancellationToken.None);
        }
        return (start, before, (int)(payments() - before));
    }

    /// <summary>Folds a closed window after the one before it (one at a time: `perf script` with DWARF unwinding keeps a CPU busy).</summary>
    private async Task FoldAsync(Task previous, ICaseProfiler profiler, int number, double start, long before, int made)
    {
        try
        {
            await previous;
            var folded = await profiler.StopAndFoldAsync(run.Cancellation);
            var records = ProfileFiles.Write(run.ResultsDirectory, Folder(number), folded, made);
            lock (windows)
            {
                windows.Add(new SoakProfileWindow(number, start, before, records));
            }
        }
        catch (OperationCanceledException)
        {
            // The run was interrupted: the window is dropped.
        }
        catch (Exception e)
            when (e is IOException or TimeoutException or UnauthorizedAccessException or InvalidDataException)
        {
            Stopped(e);
        }
        finally
        {
            await profiling.ReleaseAsync(profiler);
        }
    }

    private void Stopped(Exception e)
    {
        Problem ??= e.Message;
        run.Progress.Info($"soak: profiling stopped ({e.Message})");
    }

    private async Task DelayUntilAsync(TimeSpan due, CancellationToken stop)
    {
        var wait = due - clock.Elapsed;
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, stop);
        }
        stop.ThrowIfCancellationRequested();
    }
}
