using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// With --profile: a perf recording per Lightning node, off until the invocations it samples (every other measured
/// one, <see cref="CaseProfiler.Samples"/>: the others measure what sampling costs), switched on last before them and
/// off first after them, and folded at the case's end while the containers still run (perf reads their binaries
/// through them). A perf that stops answering costs the case its profiles, not the case.
/// </summary>
internal sealed class ProfileWindow(
    RunProfiling profiling,
    Func<CancellationToken, Task<ICaseProfiler>> start,
    CaseResults results,
    string resultsDirectory,
    int warmups,
    RunProgress progress
) : CaseInstrument
{
    private ICaseProfiler? profiler;

    public override async Task StartAsync(CancellationToken ct)
    {
        try
        {
            profiler = await start(ct);
        }
        catch (Exception e)
            when (e is IOException or TimeoutException or UnauthorizedAccessException or Processes.ToolNotFoundException
            )
        {
            results.ProfileProblem = e.Message;
            progress.Info($"case {results.CaseKey}: no profiles: {e.Message}");
        }
    }

    public override async Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        if (profiler is not null && results.ProfileProblem is null && CaseProfiler.Samples(invocation.Number, warmups))
        {
            results.MarkProfiled(invocation.Number);
            await SwitchAsync(p => p.EnableAsync(ct));
        }
    }

    public override Task AfterInvocationAsync(Invocation invocation, CancellationToken ct) =>
        SwitchAsync(p => p.DisableAsync(ct));

    /// <summary>The nodes' folded stacks, written to profiles/CASE/NODE.folded.</summary>
    public override async Task EndAsync(CancellationToken ct)
    {
        if (profiler is not { } ending)
        {
            return;
        }
        profiler = null;
        try
        {
            if (results.ProfileProblem is not null)
            {
                return;
            }
            using var step = progress.Begin($"case {results.CaseKey}: folding the nodes' stacks");
            if (!double.IsNaN(ending.MedianSwitchMs))
            {
                progress.Info(
                    $"case {results.CaseKey}: profile switches through the agent took {ending.MedianSwitchMs:0.0} ms (median round trip)"
                );
            }
            var folded = await ending.StopAndFoldAsync(ct);
            results.Profiles = ProfileFiles.Write(
                resultsDirectory,
                CaseFolder.Of(results.CaseKey),
                folded,
                results.ProfiledPayments()
            );
        }
        catch (Exception e)
            when (e is IOException or TimeoutException or UnauthorizedAccessException or InvalidDataException)
        {
            results.ProfileProblem = e.Message;
            progress.Info($"case {results.CaseKey}: no profiles: {e.Message}");
        }
        finally
        {
            await profiling.ReleaseAsync(ending);
        }
    }

    public override async ValueTask ReleaseAsync()
    {
        if (Interlocked.Exchange(ref profiler, null) is { } left)
        {
            await profiling.ReleaseAsync(left);
        }
    }

    private async Task SwitchAsync(Func<ICaseProfiler, Task> change)
    {
        if (profiler is not { } current)
        {
            return;
        }
        try
        {
            await change(current);
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            results.ProfileProblem = e.Message;
            progress.Info($"case {results.CaseKey}: profiling stopped: {e.Message}");
        }
    }
}
