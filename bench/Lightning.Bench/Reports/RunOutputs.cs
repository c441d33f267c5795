using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;

namespace Lightning.Bench.Reports;

/// <summary>
/// Every output of a run, in one place and in the order each moment writes them. The files that are not here are the
/// evidence a topology keeps as it runs (cases/CASE/docker-compose.yml, logs/, spans.jsonl, trace-events/, chain/), the
/// folded stacks a profiled case writes before its containers go (profiles/CASE-Topology-N/), and a soak's own files,
/// one writer each in Soak/: soak.csv and soak-nodes.csv window by window (SoakWindowsCsv, SoakNodesCsv), soak-report.md
/// and soak.json at its end (SoakReportMarkdown, SoakJson).
/// </summary>
internal static class RunOutputs
{
    private static readonly ComparisonReport Comparison = new();
    private static readonly ZipkinExport Zipkin = new();

    /// <summary>BenchmarkDotNet's own tables under results/: the GitHub markdown, CSV and HTML reports and every measurement.</summary>
    public static IReadOnlyList<IExporter> BenchmarkDotNet { get; } =
    [MarkdownExporter.GitHub, CsvExporter.Default, HtmlExporter.Default, CsvMeasurementsExporter.Default];

    /// <summary>Fed span by span while a case's spans are read.</summary>
    public static IReadOnlyList<ISpanOutput> Spans { get; } = [new SpansCsv()];

    /// <summary>Written as each case ends, after its spans were read.</summary>
    public static IReadOnlyList<ICaseOutput> Cases { get; } =
    [
        new PaymentSpansCsv(),
        new SpanSummaryCsv(),
        new SpanSummaryMarkdown(),
        Zipkin,
        new MalformedSpansText(),
        new PaymentCsv(),
        new ProbeCsv(),
    ];

    /// <summary>Printed after BenchmarkDotNet's tables when every case ran.</summary>
    public static IReadOnlyList<IConsoleOutput> ConsoleTables { get; } = [Comparison];

    /// <summary>Written by the run's one shutdown; the zip comes last, so it holds everything else.</summary>
    public static IReadOnlyList<IRunEndOutput> RunEnd { get; } =
    [
        new SummaryJson(),
        new MachineLoadFile(),
        Comparison,
        new VerdictsReport(),
        new ManifestJson(),
        new BuildStepsTable(),
        new BuildLogs(),
        Zipkin,
        new ProfileFolder(),
        new InstructionReport(),
        new Plots(),
        new ReportHtml(),
        new ArtifactZip(),
    ];

    /// <summary>Every file the outputs above write (BenchmarkDotNet's aside), relative to the run folder.</summary>
    public static IReadOnlyList<string> Files =>
        Spans.Cast<IRunOutput>().Concat(Cases).Concat(RunEnd).SelectMany(o => o.Files).Distinct().ToList();

    /// <summary>A case's outputs, once its spans (if any) were read.</summary>
    public static void WriteCase(CaseOutputContext context)
    {
        Directory.CreateDirectory(context.RunDirectory);
        foreach (var output in Cases)
        {
            output.Write(context);
        }
    }

    /// <summary>The run's outputs, each on its own (see <see cref="WriteEachAsync"/>).</summary>
    /// <returns>How many outputs could not be written.</returns>
    public static Task<int> WriteRunEndAsync(RunOutputContext context, CancellationToken ct = default)
    {
        Directory.CreateDirectory(context.ResultsDirectory);
        return WriteEachAsync(
            RunEnd.Select(o => (o.Files, (Func<CancellationToken, Task>)(t => o.WriteAsync(context, t)))),
            context.ResultsDirectory,
            Console.Error,
            ct
        );
    }

    /// <summary>
    /// Writes outputs one after the other; one that cannot be written (a full disk, a folder not writable) is said in
    /// one line on <paramref name="error"/> and the others are still written, so what the run measured is kept where it can be.
    /// </summary>
    internal static async Task<int> WriteEachAsync(
        IEnumerable<(IReadOnlyList<string> Files, Func<CancellationToken, Task> Write)> outputs,
        string resultsDirectory,
        TextWriter error,
        CancellationToken ct = default
    )
    {
        var failed = 0;
        foreach (var (files, write) in outputs)
        {
            try
            {
                await write(ct);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                failed++;
                error.WriteLine(
                    $"lnbench: error: could not write {string.Join(", ", files.Take(3))} (what was written of it may be cut short): {e.Message}; "
                        + $"the other results are written in {resultsDirectory} (free some space or choose --results elsewhere)"
                );
            }
        }
        return failed;
    }
}
