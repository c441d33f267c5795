using Lightning.Bench.Instructions;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// With --instructions: every node's instructions counted at rest, then over the measured window (the first
/// <see cref="CaseInstructions.WindowInvocations"/> measured invocations), the nodes let fall quiet before each of its
/// invocations and before it closes; the invocations after the window make no operations. A node whose processes do
/// not answer costs the case its counts, not the case.
/// </summary>
internal sealed class InstructionWindow(
    CaseInstructions counting,
    Func<CancellationToken, Task> waitSynced,
    INodeMeter? meter,
    CaseResults results,
    RunInstructionProfiles profiles,
    string resultsDirectory,
    int warmups,
    int iterations,
    int operationsPerInvocation,
    RunProgress progress
) : CaseInstrument
{
    private CaseInstructions? instructions = counting;

    /// <summary>The measured invocations the window spans.</summary>
    private int WindowInvocations => CaseInstructions.WindowInvocations(iterations, operationsPerInvocation);

    public override async Task MeasureIdleBeforeAsync(CancellationToken ct)
    {
        try
        {
            // Every node at the chain's tip first: a block processed late would count as idle work.
            await waitSynced(ct);
            using var step = progress.Begin(
                $"counting the nodes' idle instructions for {CaseInstructions.IdleWindow.TotalSeconds:0} s"
            );
            await instructions!.MeasureIdleAsync(CaseInstructions.IdleWindow, ct);
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidDataException)
        {
            Failed(e);
        }
    }

    public override async Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        var next = invocation.Number;
        if (instructions is not null && next > warmups && next <= warmups + WindowInvocations)
        {
            await SettleAsync(ct);
        }
        if (instructions is not null && next == warmups + 1)
        {
            await CountAsync(i => i.OpenWindowAsync(ct));
        }
        // Invocations after the window count nothing, so they make no operations (and cost no minutes).
        invocation.SkipOperations = next > warmups + WindowInvocations;
    }

    public override async Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        if (instructions is not null && invocation.Number == warmups + WindowInvocations)
        {
            await SettleAsync(ct);
            await CountAsync(async i => results.Instructions = await i.CloseWindowAsync(ct));
        }
    }

    /// <summary>Each node's function counts of the measured window, kept for the run's report and written per topology.</summary>
    public override Task EndAsync(CancellationToken ct)
    {
        if (instructions?.Dumps is not { } dumps || results.Instructions is not { } counts)
        {
            return Task.CompletedTask;
        }
        var last = warmups + WindowInvocations;
        var operations = results.Records.Count(r => r.AsExpected && r.Invocation > warmups && r.Invocation <= last);
        if (operations == 0)
        {
            return Task.CompletedTask;
        }
        try
        {
            profiles.Add(
                resultsDirectory,
                results.CaseKey,
                results.Parameters,
                CaseFolder.Of(results.CaseKey),
                dumps.Window,
                dumps.Idle,
                counts.ToDictionary(c => c.Key, c => c.Value.IdleShare),
                operations
            );
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            progress.Info($"case {results.CaseKey}: function counts not written: {e.Message}");
        }
        return Task.CompletedTask;
    }

    /// <summary>
    /// Before each invocation of the window and before it closes: waits until the nodes are quiet, so an operation's
    /// trailing work (the commitments exchanged after the payer has its preimage) is neither folded into the next one's
    /// nor cut off by the window's ends. Under Valgrind that work takes tens to hundreds of milliseconds; whether the next
    /// payment overtook it was the main part of what the count varied by.
    /// </summary>
    private async Task SettleAsync(CancellationToken ct)
    {
        if (meter is null)
        {
            return;
        }
        var wait = await meter.WaitQuietAsync(
            results.IdleCpuNanosecondsPerSecond,
            CaseInstructions.SettleQuiet,
            CaseInstructions.SettleBusyShare,
            CaseInstructions.SettleLimit,
            ct
        );
        results.SettleWaits.Add(wait);
    }

    private async Task CountAsync(Func<CaseInstructions, Task> action)
    {
        try
        {
            await action(instructions!);
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidDataException)
        {
            Failed(e);
        }
    }

    private void Failed(Exception e)
    {
        instructions = null;
        results.InstructionProblem = e.Message;
        progress.Info($"case {results.CaseKey}: no instruction counts: {e.Message}");
    }
}
