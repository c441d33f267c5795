using Lightning.Bench.Profiling;

namespace Lightning.Bench.Reports;

/// <summary>
/// profiles/ of a run that profiled its cases (--profile): flame graphs, top functions, differential flame graphs between
/// builds and what sampling cost (profiles/profiles.md). A soak's windows are reported by the soak (with trends).
/// </summary>
internal sealed class ProfileFolder : IRunEndOutput
{
    public IReadOnlyList<string> Files =>
        [
            $"{ProfileFiles.Folder}/{ProfileReport.FileName}",
            $"{ProfileFiles.Folder}/CASE/NODE.svg",
            $"{ProfileFiles.Folder}/CASE/NODE.folded",
            $"{ProfileFiles.Folder}/diff-BUILD-vs-BASELINE/CASE/NODE.svg",
        ];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        var directory = context.ResultsDirectory;
        var cases = context.Results.Cases;
        if (
            context.Profiling is not { } profiling
            || context.Profiles is not { } record
            || context.Results.SoakProfiles.Count > 0
            || record.Cases.All(c => c.Profiles.Count == 0)
        )
        {
            return Task.CompletedTask;
        }
        var groups = ProfileReport.Merge(record.Cases, file => FoldedStacks.Read(Path.Combine(directory, file)));
        var cost = ProfilingCostReport.Markdown(cases, context.Seed);
        var raw = cases.SelectMany(c => c.Profiles).Sum(p => p.RawBytes);
        var problems = record
            .Cases.Where(c => c.Problem is not null)
            .Select(c => $"- {c.CaseKey}: no profiles ({c.Problem})\n");
        var preamble =
            $"Sampled with {profiling.PerfVersion}: {profiling.Settings.Describe()}, in every other measured iteration (the 1st, 3rd, … after the warmups) "
            + "of every topology, each node on its own (its container's cgroup: lightningd, its subdaemons and plugins; not the harness or the other nodes). "
            + $"Milliseconds are samples ÷ {profiling.Settings.FrequencyHz} Hz: the node's CPU time, idle chores included. perf's raw recordings "
            + $"({raw / 1048576.0:0.0} MB) were deleted once folded; the folded stacks keep every sample (profiles/CASE-Topology-N/NODE.folded per topology, "
            + "profiles/CASE/NODE.folded merged).\n\n"
            + string.Concat(problems)
            + (problems.Any() ? "\n" : "")
            + cost;
        var lines = ProfileReport.Write(
            directory,
            groups,
            context.Options.Builds.Select(b => b.Name).ToList(),
            profiling.Settings.FrequencyHz,
            context.Options.ThresholdPercent,
            preamble
        );
        foreach (var line in lines)
        {
            context.Progress.Info($"profile: {line}");
        }
        context.Progress.Info(
            $"profiles: {Path.Combine(directory, ProfileFiles.Folder, ProfileReport.FileName)} ({groups.Count} flame graph(s))"
        );
        if (cost.Length > 0)
        {
            Console.WriteLine(cost);
        }
        return Task.CompletedTask;
    }
}
