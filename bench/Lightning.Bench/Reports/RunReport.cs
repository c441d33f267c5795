using BenchmarkDotNet.Reports;
using Lightning.Bench.Options;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>
/// Run-level outputs, written from the results model once the cases are done (or the run stopped): summary.json,
/// manifest.json, the build steps table, the merged Zipkin file, plots and the zip.
/// </summary>
public sealed class RunReport(RunContext run, MachineRecord machine, IReadOnlyList<ImageRecord> images)
{
    public async Task WriteAsync(bool completed, bool partial, bool plots)
    {
        var directory = run.ResultsDirectory;
        Directory.CreateDirectory(directory);
        var cases = run.Results.Cases;
        if (completed)
        {
            SummaryOf(cases).Write(directory);
            if (run.Results.Comparisons is { } comparisons)
            {
                ComparisonReport.Write(directory, comparisons, cases);
            }
        }
        var profiles = ProfilingOf(cases);
        ManifestOf(cases, partial, profiles).Write(directory);
        var summaryMarkdown = Path.Combine(directory, TraceFiles.SummaryMarkdown);
        var steps = cases.Where(c => c.Steps is { Steps.Count: > 0 }).Select(c => (c.Parameters, c.Steps!)).ToList();
        if (run.Options.Builds.Count > 1 && File.Exists(summaryMarkdown) && steps.Count > 0)
        {
            await File.AppendAllTextAsync(summaryMarkdown, BuildStepsTable.Render(run.Options.Builds.Select(b => b.Name).ToList(), steps));
        }
        MergeZipkin(directory);
        WriteProfiles(directory, cases, profiles);
        if (plots)
        {
            var payment = string.Join("; ", run.Options.Builds.SelectMany(b => b.Images).Select(i => run.Kinds.Get(i.Kind).PaymentCalls.Phrase).Distinct());
            foreach (var plot in await new PlotRenderer(run.Progress).RenderAsync(directory, payment))
            {
                run.Progress.Info($"plot: {plot}");
            }
        }
        if (run.Options.Zip)
        {
            run.Progress.Info($"artifact: {ArtifactZip.Create(directory)}");
        }
    }

    /// <summary>
    /// When the run is stopped mid-case: the payments of cases not yet reported go to payments.csv as they are
    /// (the last invocations counted as measured), so a partial run keeps what it measured.
    /// </summary>
    public void WriteUnreportedPayments()
    {
        foreach (var results in run.Results.Cases.Where(c => c.Steps is null))
        {
            results.Complete(run.Options.Warmups, run.Options.Iterations);
            Directory.CreateDirectory(run.ResultsDirectory);
            PaymentCsv.Append(Path.Combine(run.ResultsDirectory, PaymentCsv.FileName), results.Records);
        }
    }

    private RunSummary SummaryOf(IReadOnlyList<CaseResults> cases) =>
        new(run.RunId, run.Scenario.Name, InvoiceMode(run.Options), cases.Select(c => new CaseSummary(
            c.CaseKey,
            c.Parameters,
            c.Figures?.MeanMs ?? double.NaN,
            c.Figures?.StdDevMs ?? double.NaN,
            c.Figures is { FromBenchmarkDotNet: true } f ? f.IterationsMs : [],
            c.PaymentsPerInvocation,
            c.Figures?.PaymentsPerSecond ?? double.NaN,
            c.Figures?.P50Ms ?? double.NaN,
            c.Figures?.P95Ms ?? double.NaN,
            c.Figures?.Succeeded ?? 0,
            c.Figures?.Failed ?? 0,
            c.Figures?.FromBenchmarkDotNet ?? false,
            c.Figures?.Cpu?.Ms ?? double.NaN,
            c.Figures?.Cpu?.Iterations,
            c.Figures?.Cpu?.ByNode,
            c.Figures?.Cpu?.WithIdleMs ?? double.NaN,
            c.Topology?.Setup,
            c.Figures?.Costs?.WrittenKb ?? double.NaN,
            c.Figures?.Costs?.WrittenKbIterations,
            c.Figures?.Costs?.WrittenKbByNode,
            c.Figures?.Costs?.PeakMbByNode,
            c.Figures?.Costs?.EndRssMbByNode)).ToList(),
            run.Results.Comparisons?.Comparisons,
            run.Results.Comparisons?.Spreads,
            run.Results.Comparisons?.ThresholdPercent);

    private Manifest ManifestOf(IReadOnlyList<CaseResults> cases, bool partial, ProfilingRecord? profiles)
    {
        var options = run.Options;
        var (version, commit) = Manifest.HarnessBuild();
        return new Manifest
        {
            RunId = run.RunId,
            HarnessVersion = version,
            HarnessCommit = commit,
            Arguments = options.CommandLine,
            CommandLine = string.Join(' ', new[] { "./run.sh" }.Concat(options.CommandLine.Select(Quote))),
            Scenario = run.Scenario.Name,
            Parameters = run.Scenario.Parameters.ToDictionary(p => p.Name, p => p.ValuesFrom(options)),
            Iterations = options.Iterations,
            Warmups = options.Warmups,
            Topologies = options.Topologies,
            Seed = run.Plan.Seed,
            Order = run.Plan.Order,
            ThresholdPercent = options.ThresholdPercent,
            AmountMsat = options.AmountMsat,
            Traces = options.Traces,
            Invoices = InvoiceMode(options),
            Builds = options.Builds.Select(b => new BuildRecord(b.Name, b.Image, b.NodeImages) { Kind = b.Kind, NodeKinds = b.NodeKinds }).ToList(),
            BitcoindImage = options.BitcoindImage,
            Images = images,
            Cases = cases.Where(c => c.Topology is not null).Select(c => c.Topology!).ToList(),
            Machine = machine,
            Started = run.Started,
            Ended = DateTimeOffset.UtcNow,
            Partial = partial,
            ReplayOf = options.ReplayOf,
            Profiling = profiles,
        };
    }

    private ProfilingRecord? ProfilingOf(IReadOnlyList<CaseResults> cases)
    {
        if (run.Options.Profile is not { } settings)
        {
            return null;
        }
        return new ProfilingRecord(settings.FrequencyHz, settings.CallGraph, run.Profiling?.PerfVersion ?? "", run.ProfileSkipped,
            cases.Where(c => c.Profiles.Count > 0 || c.ProfileProblem is not null)
                .Select(c => new CaseProfiles(c.CaseKey, c.Parameters, c.Profiles, c.ProfileProblem))
                .Concat(run.Results.SoakProfiles.Select(w => new CaseProfiles($"soak window {w.Number}", new Dictionary<string, string>
                {
                    ["Window"] = w.Number.ToString(System.Globalization.CultureInfo.InvariantCulture),
                    ["StartSeconds"] = w.StartSeconds.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture),
                    ["PaymentsBefore"] = w.PaymentsBefore.ToString(System.Globalization.CultureInfo.InvariantCulture),
                }, w.Profiles, null)))
                .ToList());
    }

    /// <summary>Flame graphs, top functions, differential flame graphs between builds and what sampling cost (profiles/profiles.md).</summary>
    private void WriteProfiles(string directory, IReadOnlyList<CaseResults> cases, ProfilingRecord? profiles)
    {
        // A soak's windows are reported by the soak (profiles/profiles.md with trends): here only benchmark cases.
        if (run.Profiling is not { } profiling || profiles is not { } record || run.Results.SoakProfiles.Count > 0 || record.Cases.All(c => c.Profiles.Count == 0))
        {
            return;
        }
        var groups = ProfileReport.Merge(record.Cases, file => Profiling.FoldedStacks.Read(Path.Combine(directory, file)));
        var cost = ProfilingCostReport.Markdown(cases, run.Plan.Seed);
        var raw = cases.SelectMany(c => c.Profiles).Sum(p => p.RawBytes);
        var problems = record.Cases.Where(c => c.Problem is not null).Select(c => $"- {c.CaseKey}: no profiles ({c.Problem})\n");
        var preamble = $"Sampled with {profiling.PerfVersion}: {profiling.Settings.Describe()}, in every other measured iteration (the 1st, 3rd, … after the warmups) " +
            "of every topology, each node on its own (its container's cgroup: lightningd, its subdaemons and plugins; not the harness or the other nodes). " +
            $"Milliseconds are samples ÷ {profiling.Settings.FrequencyHz} Hz: the node's CPU time, idle chores included. perf's raw recordings " +
            $"({raw / 1048576.0:0.0} MB) were deleted once folded; the folded stacks keep every sample (profiles/CASE-Topology-N/NODE.folded per topology, " +
            "profiles/CASE/NODE.folded merged).\n\n" + string.Concat(problems) + (problems.Any() ? "\n" : "") + cost;
        var lines = ProfileReport.Write(directory, groups, run.Options.Builds.Select(b => b.Name).ToList(), profiling.Settings.FrequencyHz, run.Options.ThresholdPercent, preamble);
        foreach (var line in lines)
        {
            run.Progress.Info($"profile: {line}");
        }
        run.Progress.Info($"profiles: {Path.Combine(directory, Profiling.ProfileFiles.Folder, ProfileReport.FileName)} ({groups.Count} flame graph(s))");
        if (cost.Length > 0)
        {
            Console.WriteLine(cost);
        }
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
