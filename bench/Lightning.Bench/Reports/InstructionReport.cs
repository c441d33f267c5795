using System.Globalization;
using System.Text;
using Lightning.Bench.Instructions;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// instructions/ of an --instructions run: instructions.md (per case, build and node: each process's instructions per
/// payment, the heaviest functions, and with --build the functions whose count changed with their intervals), a flame
/// graph per case, build and node drawn from instruction counts, and a differential flame graph per candidate.
/// </summary>
internal sealed class InstructionReport : IRunEndOutput
{
    public const string FileName = "instructions.md";
    private const int TopFunctions = 15;

    public IReadOnlyList<string> Files =>
        [
            $"{RunInstructionProfiles.Folder}/{FileName}",
            $"{RunInstructionProfiles.Folder}/CASE/NODE.folded",
            $"{RunInstructionProfiles.Folder}/CASE/NODE{RunInstructionProfiles.FunctionsSuffix}",
            $"{RunInstructionProfiles.Folder}/CELL/BUILD/NODE.svg",
            $"{RunInstructionProfiles.Folder}/diff-BUILD-vs-BASELINE/CELL/NODE.svg",
        ];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.Valgrind is null || context.InstructionProfiles is not { } store || store.All.Count == 0)
        {
            return Task.CompletedTask;
        }
        var directory = Path.Combine(context.ResultsDirectory, RunInstructionProfiles.Folder);
        var builds = context.Options.Builds.Select(b => b.Name).ToList();
        var text = new StringBuilder();
        text.AppendLine("# Instructions per payment").AppendLine();
        text.AppendLine(
            Invariant(
                $"Every Lightning node ran under {context.Valgrind.Version}'s callgrind (brought from the host), its child processes counted too "
            )
                + "except bitcoin-cli and interpreters. Each topology's processes were zeroed before its first measured invocation and dumped after its last "
                + Invariant(
                    $"through vgdb, and counted at rest for {CaseInstructions.IdleWindow.TotalSeconds:0} s before its first payment; the idle counts, scaled to the window's length, "
                )
                + "are subtracted per process. Flame graphs show the window's counts as they were (idle chores included); tables subtract them. "
                + "Times measured under Valgrind are not reported here. Per topology: `CASE/NODE.functions.csv` (self and inclusive per payment) and `CASE/NODE.folded`."
        );
        text.AppendLine();
        foreach (var cell in store.All.GroupBy(p => p.Id.Cell.Label))
        {
            text.AppendLine($"## {cell.Key}").AppendLine();
            var arms = cell.GroupBy(p => p.Id.Arm.Build)
                .OrderBy(g => builds.IndexOf(g.Key))
                .ToDictionary(g => g.Key, g => g.ToList());
            foreach (var (build, profiles) in arms)
            {
                text.AppendLine(
                        $"### {build}: instructions per payment by process (mean of {profiles.Select(p => p.CaseKey).Distinct().Count()} topologies)"
                    )
                    .AppendLine();
                text.Append(ProcessTable(profiles));
                foreach (var node in profiles.GroupBy(p => p.Node).OrderBy(g => g.Key, StringComparer.Ordinal))
                {
                    var mean = InstructionProfile.Sum(node.Select(p => p.PerPayment)).Scale(1.0 / node.Count());
                    text.AppendLine()
                        .AppendLine(
                            $"{node.Key}'s heaviest functions (self instructions per payment, mean over topologies):"
                        )
                        .AppendLine();
                    text.AppendLine("| function | process | self | inclusive |").AppendLine("|---|---|---:|---:|");
                    foreach (
                        var (function, counts) in mean.Functions.OrderByDescending(f => f.Value.Self).Take(TopFunctions)
                    )
                    {
                        text.AppendLine(
                            $"| {ProfileFormat.Cell(function.Name)} | {function.Process} | {Whole(counts.Self)} | {Whole(counts.Inclusive)} |"
                        );
                    }
                    var svg = Path.Combine(directory, CaseFolder.Of(cell.Key), CaseFolder.Of(build), node.Key + ".svg");
                    Directory.CreateDirectory(Path.GetDirectoryName(svg)!);
                    AtomicFile.WriteAllText(
                        svg,
                        FlameGraphSvg.Render(
                            FoldedStacks.Merge(node.Select(p => p.Window)),
                            $"{node.Key}, {build}, {cell.Key}: instructions",
                            Invariant(
                                $"{node.Sum(p => p.Payments)} payments over {node.Count()} topologies, callgrind Ir"
                            ),
                            unit: "instructions"
                        )
                    );
                    text.AppendLine()
                        .AppendLine(
                            $"Flame graph: [{Path.GetRelativePath(directory, svg)}]({Path.GetRelativePath(directory, svg)})"
                        );
                }
                text.AppendLine();
            }
            if (builds.Count > 1 && arms.TryGetValue(builds[0], out var baseline))
            {
                foreach (var (candidateBuild, candidate) in arms.Where(a => a.Key != builds[0]))
                {
                    Differences(
                        text,
                        directory,
                        cell.Key,
                        builds[0],
                        baseline,
                        candidateBuild,
                        candidate,
                        context.Options.InstructionsThresholdPercent
                    );
                }
            }
        }
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, FileName);
        AtomicFile.WriteAllText(file, text.ToString());
        context.Progress.Info($"instructions: {file}");
        return Task.CompletedTask;
    }

    /// <summary>Per node, the functions whose count changed between the builds' topology pairs, and the differential flame graph.</summary>
    private static void Differences(
        StringBuilder text,
        string directory,
        string cell,
        string baselineBuild,
        List<TopologyInstructionProfile> baseline,
        string candidateBuild,
        List<TopologyInstructionProfile> candidate,
        double thresholdPercent
    )
    {
        foreach (var node in baseline.Select(p => p.Node).Distinct().Order(StringComparer.Ordinal))
        {
            var pairs = baseline
                .Where(p => p.Node == node)
                .Join(
                    candidate.Where(p => p.Node == node),
                    p => p.Id.Topology,
                    p => p.Id.Topology,
                    (b, c) => (Baseline: b, Candidate: c)
                )
                .OrderBy(p => p.Baseline.Id.Topology)
                .ToList();
            if (pairs.Count == 0)
            {
                continue;
            }
            var changes = InstructionFunctionChanges.Compare(
                pairs.Select(p => p.Baseline.PerPayment).ToList(),
                pairs.Select(p => p.Candidate.PerPayment).ToList(),
                thresholdPercent
            );
            text.Append(changes.Markdown($"{cell}, {node}: {candidateBuild} against {baselineBuild}"));
            var svg = Path.Combine(
                directory,
                $"diff-{CaseFolder.Of(candidateBuild)}-vs-{CaseFolder.Of(baselineBuild)}",
                CaseFolder.Of(cell),
                node + ".svg"
            );
            Directory.CreateDirectory(Path.GetDirectoryName(svg)!);
            AtomicFile.WriteAllText(
                svg,
                DifferentialFlameGraph.Render(
                    FoldedStacks.Merge(pairs.Select(p => p.Baseline.Window)),
                    pairs.Sum(p => p.Baseline.Payments),
                    FoldedStacks.Merge(pairs.Select(p => p.Candidate.Window)),
                    pairs.Sum(p => p.Candidate.Payments),
                    samplesPerSecond: 1,
                    $"{node}, {cell}: {candidateBuild} against {baselineBuild}, instructions per payment",
                    Invariant($"{pairs.Count} topology pairs, callgrind Ir (idle chores included)"),
                    baselineName: baselineBuild,
                    candidateName: candidateBuild,
                    units: ProfileUnits.Instructions
                )
            );
            text.AppendLine()
                .AppendLine(
                    $"Differential flame graph: [{Path.GetRelativePath(directory, svg)}]({Path.GetRelativePath(directory, svg)})"
                )
                .AppendLine();
        }
    }

    /// <summary>Each node's processes: mean instructions per payment over the topologies, and their spread between topologies.</summary>
    private static string ProcessTable(List<TopologyInstructionProfile> profiles)
    {
        var text = new StringBuilder();
        text.AppendLine("| node | process | instructions/payment | between topologies (SD %) |")
            .AppendLine("|---|---|---:|---:|");
        foreach (var node in profiles.GroupBy(p => p.Node).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var processes = node.SelectMany(p => p.PerPayment.Processes.Keys)
                .Distinct()
                .Select(process =>
                    (
                        Process: process,
                        Values: node.Select(p => p.PerPayment.Processes.GetValueOrDefault(process)).ToList()
                    )
                )
                .OrderByDescending(p => p.Values.Average())
                .ToList();
            var totals = node.Select(p => p.PerPayment.Total).ToList();
            text.AppendLine($"| {node.Key} | all | {Whole(totals.Average())} | {Spread(totals)} |");
            foreach (var (process, values) in processes.Where(p => Math.Abs(p.Values.Average()) >= 1000))
            {
                text.AppendLine($"| | {process} | {Whole(values.Average())} | {Spread(values)} |");
            }
        }
        return text.ToString();
    }

    private static string Spread(IReadOnlyList<double> values) =>
        values.Count < 2 || values.Average() == 0
            ? "-"
            : (SampleVariance.StandardDeviation(values) / Math.Abs(values.Average()) * 100).ToString(
                "0.00",
                CultureInfo.InvariantCulture
            );

    private static string Whole(double value) => InstructionFunctionChanges.Whole(value);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
