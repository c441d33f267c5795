using BenchmarkDotNet.Running;
using Lightning.Bench.Cases;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Run;

/// <summary>What a started run measures: BenchmarkDotNet over the scenario's cases once, in budgeted rounds (--max-time), or one case continuously (--soak).</summary>
internal static class MeasuredRun
{
    /// <summary>Non-zero when a case failed, BenchmarkDotNet refused the run or a soak's budget was broken.</summary>
    public static async Task<int> RunAsync(RunContext run, BenchmarkOutput output, RunShutdown shutdown)
    {
        // The machine is sampled while the run measures: its load, and what other work took of its CPU.
        var watch = shutdown.MachineLoad = await Network.MachineLoadWatch.StartAsync(
            run.Engine,
            $"{Cleanup.RunLabels.Run}={run.RunId}"
        );
        try
        {
            return run.Options.Soak is not null ? await RunSoakAsync(run, shutdown)
                : run.Options.MaxTime is { } budget ? new BudgetedRun(run, output, shutdown, budget).Run()
                : RunOnce(run, output, shutdown);
        }
        finally
        {
            await watch.StopAsync();
        }
    }

    /// <summary>BenchmarkDotNet over the scenario's cases, then the comparisons and their tables.</summary>
    private static int RunOnce(RunContext run, BenchmarkOutput output, RunShutdown shutdown)
    {
        var options = run.Options;
        var config = BenchConfig.Create(
            options,
            run.Kinds,
            run.ResultsDirectory,
            run.Results,
            run.Plan,
            output,
            alternatingArms: run.Alternating ? run.Arms : 1,
            progress: run.Progress.Model
        );
        BenchmarkDotNet.Reports.Summary summary;
        using (BenchmarkHost.Host(run))
        {
            summary = BenchmarkRunner.Run(
                run.Scenario.BenchmarkType,
                config,
                options.BenchmarkDotNetArguments.ToArray()
            );
        }
        // The last case ends before BenchmarkDotNet returns; with an order of its own (a --filter) one may still be ending,
        // or a group of alternating arms may still be live.
        run.Progress.Model.SetActivity("ending the last topologies");
        run.EndLiveGroupAsync().GetAwaiter().GetResult();
        RunTables.EndDisplay(run, [summary]);
        shutdown.Completed = true;
        run.Results.Comparisons = ArmComparer.Of(
            run.Results,
            options.Builds.Select(b => b.Name).ToList(),
            options.Traces,
            options.ThresholdPercent,
            run.Plan.Seed,
            options.InstructionsThresholdPercent
        );
        return RunTables.Print(
            run,
            summary.Reports.Count(r => !r.Success) + run.EndsFailed,
            summary.BenchmarksCases.Length,
            summary.HasCriticalValidationErrors || summary.Reports.Length == 0
        );
    }

    /// <summary>One case driven continuously (--soak); non-zero when a budget was broken. Its report is written by the shutdown.</summary>
    private static async Task<int> RunSoakAsync(RunContext run, RunShutdown shutdown)
    {
        var soak = shutdown.Soak = new Soak.SoakRun(run);
        bool held;
        using (BenchmarkHost.Host(run))
        {
            held = await soak.RunAsync();
            await soak.EndAsync();
        }
        // Its verdict prints under the display's last frame, not into it.
        run.Progress.StopDisplay();
        return held
            ? 0
            : RunTables.Fail(
                run,
                $"a soak budget was broken (see {Path.Combine(run.ResultsDirectory, Soak.SoakReportMarkdown.FileName)})"
            );
    }
}
