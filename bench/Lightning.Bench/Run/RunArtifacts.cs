using BenchmarkDotNet.Reports;
using Lightning.Bench.Columns;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Run;

/// <summary>Run-level outputs, made once the cases are done (or the run stopped): summary, manifest, Zipkin file, plots, zip.</summary>
public sealed class RunArtifacts(HarnessSession session, MachineRecord machine, IReadOnlyList<ImageRecord> images)
{
    public async Task WriteAsync(Summary? summary, bool partial, bool plots)
    {
        var directory = session.ResultsDirectory;
        Directory.CreateDirectory(directory);
        if (summary is not null)
        {
            SummaryOf(summary).Write(directory);
        }
        ManifestOf(partial).Write(directory);
        var summaryMarkdown = Path.Combine(directory, TraceFiles.SummaryMarkdown);
        if (session.Options.Builds.Count > 1 && File.Exists(summaryMarkdown) && session.Steps.Any(s => s.Steps.Steps.Count > 0))
        {
            await File.AppendAllTextAsync(summaryMarkdown, BuildStepsTable.Render(session.Options.Builds.Select(b => b.Name).ToList(), session.Steps));
        }
        MergeZipkin(directory);
        if (plots)
        {
            foreach (var plot in await new PlotRenderer(session.Progress).RenderAsync(directory))
            {
                session.Progress.Info($"plot: {plot}");
            }
        }
        if (session.Options.Zip)
        {
            session.Progress.Info($"artifact: {ArtifactZip.Create(directory)}");
        }
    }

    private RunSummary SummaryOf(Summary summary)
    {
        var cases = new List<CaseSummary>();
        foreach (var benchmarkCase in summary.BenchmarksCases)
        {
            var key = HarnessColumns.KeyOf(benchmarkCase);
            var statistics = summary[benchmarkCase]?.ResultStatistics;
            var results = session.Payments.Find(key);
            var mean = results is null ? null : CaseFigures.MeanNanoseconds(statistics?.Mean, results);
            var figures = results is not null && mean is not null ? CaseFigures.Compute(results, mean.Value) : null;
            cases.Add(new CaseSummary(
                key,
                CaseKey.Texts(benchmarkCase.Parameters.Items.Select(p => new KeyValuePair<string, object>(p.Name, p.Value))),
                (mean ?? double.NaN) / 1e6,
                (statistics?.StandardDeviation ?? double.NaN) / 1e6,
                statistics?.OriginalValues.Select(v => v / 1e6).ToList() ?? [],
                results?.PaymentsPerInvocation ?? 0,
                figures?.PaymentsPerSecond ?? double.NaN,
                figures?.P50Ms ?? double.NaN,
                figures?.P95Ms ?? double.NaN,
                figures?.Succeeded ?? 0,
                figures?.Failed ?? 0,
                statistics is not null));
        }
        return new RunSummary(session.RunId, session.Scenario.Name, InvoiceMode(session.Options), cases);
    }

    private Manifest ManifestOf(bool partial)
    {
        var options = session.Options;
        var (version, commit) = Manifest.HarnessBuild();
        return new Manifest
        {
            RunId = session.RunId,
            HarnessVersion = version,
            HarnessCommit = commit,
            Arguments = options.CommandLine,
            CommandLine = string.Join(' ', new[] { "./run.sh" }.Concat(options.CommandLine.Select(Quote))),
            Scenario = session.Scenario.Name,
            Parameters = session.Scenario.Parameters.ToDictionary(p => p.Name, p => p.ValuesFrom(options)),
            Iterations = options.Iterations,
            Warmups = options.Warmups,
            AmountMsat = options.AmountMsat,
            Traces = options.Traces,
            Invoices = InvoiceMode(options),
            Builds = options.Builds.Select(b => new BuildRecord(b.Name, b.Image, b.NodeImages)).ToList(),
            BitcoindImage = options.BitcoindImage,
            Images = images,
            Cases = session.Cases,
            Machine = machine,
            Started = session.Started,
            Ended = DateTimeOffset.UtcNow,
            Partial = partial,
            ReplayOf = options.ReplayOf,
        };
    }

    private static void MergeZipkin(string directory)
    {
        var cases = Path.Combine(directory, "cases");
        if (!Directory.Exists(cases))
        {
            return;
        }
        var parts = Directory.GetDirectories(cases).Order().Select(d => Path.Combine(d, ZipkinExport.FileName)).ToList();
        if (parts.Any(File.Exists))
        {
            ZipkinExport.Merge(Path.Combine(directory, ZipkinExport.FileName), parts);
        }
    }

    private static string InvoiceMode(HarnessOptions options) => options.PregenerateInvoices ? "pregenerated" : "in payment";

    private static string Quote(string argument) =>
        argument.Length > 0 && argument.All(c => char.IsLetterOrDigit(c) || "-_=.,:/@+".Contains(c)) ? argument : $"'{argument.Replace("'", "'\\''", StringComparison.Ordinal)}'";
}
