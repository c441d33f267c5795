using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using Lightning.Bench.Cases;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Run;

/// <summary>The end of a run's measuring on the console: BenchmarkDotNet's summary under the display, the comparison tables, and the run's error line.</summary>
internal static class RunTables
{
    /// <summary>The comparison tables after BenchmarkDotNet's; non-zero when a case failed or BenchmarkDotNet refused the run.</summary>
    public static int Print(RunContext run, int failed, int declared, bool critical)
    {
        foreach (var tables in RunOutputs.ConsoleTables)
        {
            var text = new StringWriter();
            tables.Print(run.Results, text);
            Console.Out.Write(text.ToString());
            run.Progress.Log?.Write(text.ToString());
        }
        if (critical || failed > 0)
        {
            // With a live display the log was never above: it is in the run folder.
            var log = run.Progress.IsLive && run.Progress.Log?.Path is { } path ? $"the log ({path})" : "the log above";
            return Fail(
                run,
                $"{FailedCount(failed, declared)} of {declared} benchmark case(s) failed; see {log} and {run.ResultsDirectory}"
            );
        }
        return 0;
    }

    /// <summary>
    /// The failed cases to say: a case that BenchmarkDotNet failed and whose end failed too (an interrupted run's, as
    /// its signal cut both) is counted by both, and a run cannot fail more cases than it declared.
    /// </summary>
    internal static int FailedCount(int failed, int declared) => declared > 0 ? Math.Min(failed, declared) : failed;

    /// <summary>
    /// BenchmarkDotNet is done: a live display ends, and BenchmarkDotNet's summary table, which only its log had while
    /// the display showed, is printed under its last frame (plain lines had it already).
    /// </summary>
    public static void EndDisplay(RunContext run, IReadOnlyList<Summary> summaries)
    {
        run.Progress.Model.SetActivity("writing the run's results");
        run.Progress.StopDisplay();
        if (!run.Progress.IsLive || summaries.Count == 0)
        {
            return;
        }
        try
        {
            PrintSummary(run, summaries);
        }
        catch (IOException)
        {
            // The terminal closed under the run (SIGHUP): BenchmarkDotNet's logger sets colours on the terminal itself,
            // which then fails; its summary is in console.log and BenchmarkDotNet's own log.
        }
    }

    private static void PrintSummary(RunContext run, IReadOnlyList<Summary> summaries)
    {
        var console = ConsoleLogger.Default;
        // A budgeted run can make dozens of rounds: their tables would bury the verdicts printed next, so only the last
        // round's is printed and console.log has them all.
        console.WriteLine();
        console.WriteLineHeader(
            summaries.Count == 1
                ? "// * Summary *"
                : $"// * Summary of round {summaries.Count}, the last (every round's is in console.log) *"
        );
        BenchmarkDotNet.Exporters.MarkdownExporter.Console.ExportToLog(summaries[^1], console);
        var earlier = summaries.Count > 1 ? $" (the earlier rounds' beside it)" : "";
        console.WriteLineInfo($"// BenchmarkDotNet's log: {summaries[^1].LogFilePath}{earlier}");
        console.WriteLineInfo($"// the whole console, its log with the harness's lines: {run.Progress.Log?.Path}");
    }

    /// <summary>The run's error on standard error, as <see cref="HarnessExit.Fail"/> says it, and in its console.log, which keeps the whole console.</summary>
    public static int Fail(RunContext run, string message)
    {
        run.Progress.Log?.WriteLine($"lnbench: error: {message}");
        return HarnessExit.Fail(HarnessExit.Failure, message);
    }
}
