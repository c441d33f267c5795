using System.Text;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// ./run.sh --compare A B with two profiled runs: per case both runs share (Build aside) and node, B's profile against
/// A's (differential flame graphs and the functions whose CPU per payment changed most, Welch intervals over
/// topologies since the runs' topologies were not paired), written to RESULTS/compare-A-vs-B/profiles.
/// </summary>
internal static class ProfileComparison
{
    /// <summary>The comparison's markdown (empty when neither run has profiles).</summary>
    public static string Write(string pathA, string pathB, string resultsRoot, double thresholdPercent)
    {
        var a = Manifest.Read(RunArchive.ReadText(pathA, Manifest.FileName));
        var b = Manifest.Read(RunArchive.ReadText(pathB, Manifest.FileName));
        if (a.Profiling is null && b.Profiling is null)
        {
            return "";
        }
        if (a.Profiling is not { } profilingA || b.Profiling is not { } profilingB)
        {
            return $"Profiles: only {(a.Profiling is null ? "B" : "A")} was profiled; run the other with --profile to compare where the CPU went.\n";
        }
        if (profilingA.FrequencyHz != profilingB.FrequencyHz)
        {
            return $"Profiles: A was sampled at {profilingA.FrequencyHz} Hz and B at {profilingB.FrequencyHz} Hz; profile both at one frequency to compare them.\n";
        }
        FoldedStacks Reader(string run, string file) =>
            FoldedStacks.Parse(new StringReader(RunArchive.ReadText(run, file)));
        var groupsA = ProfileReport.Merge(profilingA.Cases, f => Reader(pathA, f));
        var groupsB = ProfileReport.Merge(profilingB.Cases, f => Reader(pathB, f));
        var folder = Path.GetFullPath(
            Path.Combine(resultsRoot, $"compare-{a.RunId}-vs-{b.RunId}", ProfileFiles.Folder)
        );
        var text = new StringBuilder($"# Profiles: B ({b.RunId}) against A ({a.RunId})\n\n");
        var pairs = 0;
        foreach (var candidate in groupsB)
        {
            foreach (
                var baseline in groupsA.Where(g =>
                    g.Node == candidate.Node
                    && ProfileReport.CellOf(g.Parameters, "Build")
                        == ProfileReport.CellOf(candidate.Parameters, "Build")
                )
            )
            {
                var cell = ProfileReport.CellOf(candidate.Parameters, "Build");
                var title =
                    $"{candidate.Node}: B {candidate.Parameters.GetValueOrDefault("Build")} against A {baseline.Parameters.GetValueOrDefault("Build")}, {cell}";
                var svg = Path.Combine(
                    folder,
                    CaseFolder.Of(
                        $"B-{candidate.Parameters.GetValueOrDefault("Build")}-vs-A-{baseline.Parameters.GetValueOrDefault("Build")}"
                    ),
                    CaseFolder.Of(cell),
                    candidate.Node + ".svg"
                );
                text.Append(
                        ProfileReport.WriteDiff(
                            svg,
                            title,
                            "Shape: B's stacks per payment. Two runs: the machine and the day differ as well as the builds.",
                            baseline,
                            candidate,
                            profilingA.FrequencyHz,
                            thresholdPercent,
                            paired: false
                        )
                    )
                    .Append($"Differential flame graph: {svg}\n\n");
                pairs++;
            }
        }
        if (pairs == 0)
        {
            return "Profiles: the runs share no profiled case and node.\n";
        }
        Directory.CreateDirectory(folder);
        AtomicFile.WriteAllText(Path.Combine(folder, ProfileReport.FileName), text.ToString());
        return text.ToString();
    }
}
