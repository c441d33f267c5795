using System.Globalization;
using System.Text;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// The run's profiles, from the cases' folded stacks: per case (its topologies merged) and node a flame graph
/// (profiles/CASE/NODE.svg) and its merged folded stacks, the top functions, and with several builds, per node role a
/// differential flame graph of each build against the baseline (profiles/diff-CANDIDATE-vs-BASELINE/CASE/NODE.svg) with
/// the functions whose CPU per payment changed most, each change with its 95 % interval over the topology pairs.
/// Everything goes to profiles/profiles.md.
/// </summary>
internal static class ProfileReport
{
    public const string FileName = "profiles.md";

    /// <summary>Rows of each top-functions and changes table.</summary>
    public const int TopCount = 15;

    /// <summary>One case's profiles of one node, its topologies merged; <see cref="PerTopology"/> keeps them apart for intervals.</summary>
    public sealed record Group(
        string Cell,
        IReadOnlyDictionary<string, string> Parameters,
        string Node,
        FoldedStacks Stacks,
        int Payments,
        IReadOnlyList<(string Topology, FoldedStacks Stacks, int Payments)> PerTopology
    );

    /// <summary>Merges each case's topologies per node (cases keyed by their parameters without Topology).</summary>
    public static IReadOnlyList<Group> Merge(IEnumerable<CaseProfiles> cases, Func<string, FoldedStacks> read) =>
        cases
            .SelectMany(c => c.Profiles.Where(p => p.Payments > 0).Select(p => (Case: c, Profile: p)))
            .GroupBy(x => (Cell: CellOf(x.Case.Parameters), x.Profile.Node))
            .OrderBy(g => g.Key.Cell, StringComparer.Ordinal)
            .ThenBy(g => g.Key.Node, StringComparer.Ordinal)
            .Select(g =>
            {
                var topologies = g.Select(x =>
                        (
                            Topology: x.Case.Parameters.GetValueOrDefault("Topology", "1"),
                            Stacks: read(x.Profile.File),
                            x.Profile.Payments
                        )
                    )
                    .ToList();
                var parameters = g.First()
                    .Case.Parameters.Where(p => p.Key != "Topology")
                    .ToDictionary(p => p.Key, p => p.Value);
                return new Group(
                    g.Key.Cell,
                    parameters,
                    g.Key.Node,
                    FoldedStacks.Merge(topologies.Select(t => t.Stacks)),
                    topologies.Sum(t => t.Payments),
                    topologies
                );
            })
            .ToList();

    /// <summary>
    /// Writes the flame graphs, merged folded stacks and profiles.md; returns lines for the console: each node's heaviest
    /// functions per case, and every change between builds called beyond noise.
    /// </summary>
    /// <param name="builds">Build names, the baseline first.</param>
    /// <param name="preamble">Text for the top of profiles.md (how it was sampled, what it cost).</param>
    /// <param name="thresholdPercent">The run's --threshold: the smallest change of a node's CPU per payment that matters.</param>
    public static IReadOnlyList<string> Write(
        string runDirectory,
        IReadOnlyList<Group> groups,
        IReadOnlyList<string> builds,
        int frequencyHz,
        double thresholdPercent,
        string preamble
    )
    {
        var lines = new List<string>();
        var folder = Path.Combine(runDirectory, ProfileFiles.Folder);
        Directory.CreateDirectory(folder);
        var text = new StringBuilder("# Where the nodes' CPU went\n\n").Append(preamble).Append('\n');
        foreach (var group in groups)
        {
            var cellFolder = Path.Combine(folder, CaseFolder.Of(group.Cell));
            Directory.CreateDirectory(cellFolder);
            group
                .Stacks.Bounded(ProfileFiles.MaxStacks)
                .WriteFile(Path.Combine(cellFolder, group.Node + ProfileFiles.Extension));
            var svg = Path.Combine(cellFolder, group.Node + ".svg");
            AtomicFile.WriteAllText(
                svg,
                FlameGraphSvg.Render(group.Stacks, $"{group.Node}: {group.Cell}", Describe(group, frequencyHz))
            );
            var heaviest = FunctionTable
                .Top(group.Stacks, 3)
                .Select(f => Invariant($"{f.Function} {f.SelfShare * 100:0} %"));
            lines.Add(
                Invariant(
                    $"{group.Node}, {group.Cell}: {group.Stacks.Total * 1000.0 / frequencyHz / Math.Max(1, group.Payments):0.0} ms of CPU per payment in {group.Stacks.Total} samples; most self time: {string.Join(", ", heaviest)}"
                )
            );
            text.Append(
                    FunctionTable.Markdown(
                        $"{group.Node}: {group.Cell}",
                        group.Stacks,
                        frequencyHz,
                        group.Payments,
                        TopCount
                    )
                )
                .Append('\n')
                .Append(
                    $"Flame graph: [{Path.GetRelativePath(runDirectory, svg)}]({Path.GetRelativePath(folder, svg)}). {Describe(group, frequencyHz)}\n\n"
                );
        }
        foreach (var (baseline, candidate) in Pairs(groups, builds))
        {
            var name =
                $"diff-{CaseFolder.Of(candidate.Parameters["Build"])}-vs-{CaseFolder.Of(baseline.Parameters["Build"])}";
            var cell = CellOf(candidate.Parameters, "Build");
            var svg = Path.Combine(folder, name, CaseFolder.Of(cell), candidate.Node + ".svg");
            var title =
                $"{candidate.Node}: {candidate.Parameters["Build"]} against {baseline.Parameters["Build"]}, {cell}";
            var called = new List<string>();
            text.Append(
                    WriteDiff(
                        svg,
                        title,
                        Invariant(
                            $"Shape: the candidate's stacks per payment ({candidate.Stacks.Total} samples over {candidate.Payments} payments; baseline {baseline.Stacks.Total} over {baseline.Payments})."
                        ),
                        baseline,
                        candidate,
                        frequencyHz,
                        thresholdPercent,
                        paired: true,
                        called
                    )
                )
                .Append(
                    $"Differential flame graph: [{Path.GetRelativePath(runDirectory, svg)}]({Path.GetRelativePath(folder, svg)}).\n\n"
                );
            lines.AddRange(
                called.Count > 0 ? called.Select(c => $"{title}: {c}") : [$"{title}: no function changed beyond noise"]
            );
        }
        AtomicFile.WriteAllText(Path.Combine(folder, FileName), text.ToString());
        return lines;
    }

    /// <summary>
    /// Writes the differential flame graph of <paramref name="candidate"/> against <paramref name="baseline"/> to
    /// <paramref name="svgPath"/> and returns their table of changes (see <see cref="Changes"/>).
    /// </summary>
    public static string WriteDiff(
        string svgPath,
        string title,
        string subtitle,
        Group baseline,
        Group candidate,
        int frequencyHz,
        double thresholdPercent,
        bool paired,
        ICollection<string>? called = null
    )
    {
        Directory.CreateDirectory(Path.GetDirectoryName(svgPath)!);
        AtomicFile.WriteAllText(
            svgPath,
            DifferentialFlameGraph.Render(
                baseline.Stacks,
                baseline.Payments,
                candidate.Stacks,
                candidate.Payments,
                frequencyHz,
                title,
                subtitle
            )
        );
        return Changes(title, baseline, candidate, frequencyHz, thresholdPercent, paired, called);
    }

    /// <summary>
    /// The functions whose self CPU per payment changed most, with the mean change and its 95 % t-interval over
    /// topology pairs when the builds ran on paired topologies (the same Topology index, started next to each other),
    /// or Welch's over the two sets of topologies; never narrower than the Poisson noise of the sample counts. A row is
    /// called beyond noise ("grew"/"shrank") only when the change is at least <paramref name="thresholdPercent"/> % of
    /// the node's CPU per payment and its interval, widened (Bonferroni) for every function heavy enough to change that
    /// much, excludes 0.
    /// </summary>
    /// <param name="paired">Topologies of the same index ran side by side (one run); across runs (--compare) they did not.</param>
    /// <param name="called">Receives a line per row called beyond noise.</param>
    public static string Changes(
        string title,
        Group baseline,
        Group candidate,
        int frequencyHz,
        double thresholdPercent,
        bool paired = true,
        ICollection<string>? called = null
    )
    {
        var text = new StringBuilder($"## {title}\n\n");
        double Ms(double samples, double payments) =>
            payments > 0 ? samples / frequencyHz * 1000 / payments : double.NaN;
        var before = Ms(baseline.Stacks.Total, baseline.Payments);
        var after = Ms(candidate.Stacks.Total, candidate.Payments);
        var baselineSelf = baseline.PerTopology.ToDictionary(
            t => t.Topology,
            t => SelfMs(t.Stacks, t.Payments, frequencyHz)
        );
        var candidateSelf = candidate.PerTopology.ToDictionary(
            t => t.Topology,
            t => SelfMs(t.Stacks, t.Payments, frequencyHz)
        );
        // A sample stands for 1000/Hz/payments ms per payment: a count's Poisson variance in ms² is its value times that.
        var baselineUnit = baseline.PerTopology.ToDictionary(t => t.Topology, t => 1000.0 / frequencyHz / t.Payments);
        var candidateUnit = candidate.PerTopology.ToDictionary(t => t.Topology, t => 1000.0 / frequencyHz / t.Payments);
        var practical = thresholdPercent / 100 * before;
        // The family a row is judged in: the functions heavy enough that a change of the practical size is possible
        // (self time before + after ≥ the threshold). Filtering on the level both builds share, not on the change,
        // keeps the test's error rate (independent filtering), and leaves out the hundreds of frames with a sample or two.
        var changes = ProfileDiff.Changes(
            baseline.Stacks,
            baseline.Payments,
            candidate.Stacks,
            candidate.Payments,
            int.MaxValue
        );
        var functions = Math.Max(
            1,
            changes.Count(c => (c.BaselineSelfPerPayment + c.CandidateSelfPerPayment) / frequencyHz * 1000 >= practical)
        );
        var pairs = baselineSelf.Keys.Intersect(candidateSelf.Keys).Order(StringComparer.Ordinal).ToList();
        text.Append(
                Invariant(
                    $"Node CPU in the samples: {before:0.00} → {after:0.00} ms per payment ({Signed(after - before)} ms); "
                )
            )
            .Append(
                Invariant(
                    $"{baseline.Stacks.Total} and {candidate.Stacks.Total} samples over {baseline.Payments} and {candidate.Payments} payments. "
                )
            )
            .Append(
                Invariant(
                    $"Beyond noise: a change of at least {thresholdPercent:0.##} % of the baseline node's CPU per payment ({practical:0.00} ms) whose interval, widened for the {functions} function{(functions == 1 ? "" : "s")} heavy enough to change that much, excludes 0.\n\n"
                )
            );
        text.Append(
            $"| function | called from (most samples) | self ms/payment before | after | change | 95 % interval ({(paired ? "topology pairs" : "Welch, topologies")}) | beyond noise | total ms/payment before | after |\n"
        );
        text.Append("|---|---|---:|---:|---:|---|---|---:|---:|\n");
        // ProfileDiff orders by the size of the change: the table is its first rows.
        foreach (var change in changes.Take(TopCount))
        {
            var function = change.Function;
            var estimate = paired
                ? ChangeEstimate.Paired(
                    pairs
                        .Select(t =>
                            candidateSelf[t].GetValueOrDefault(function) - baselineSelf[t].GetValueOrDefault(function)
                        )
                        .ToList(),
                    pairs
                        .Select(t =>
                            candidateSelf[t].GetValueOrDefault(function) * candidateUnit[t]
                            + baselineSelf[t].GetValueOrDefault(function) * baselineUnit[t]
                        )
                        .ToList()
                )
                : ChangeEstimate.Welch(
                    baselineSelf
                        .Select(s =>
                            (
                                s.Value.GetValueOrDefault(function),
                                s.Value.GetValueOrDefault(function) * baselineUnit[s.Key]
                            )
                        )
                        .ToList(),
                    candidateSelf
                        .Select(s =>
                            (
                                s.Value.GetValueOrDefault(function),
                                s.Value.GetValueOrDefault(function) * candidateUnit[s.Key]
                            )
                        )
                        .ToList()
                );
            var callers = CalledFrom(
                change.CandidateSelfPerPayment > 0 ? candidate.Stacks : baseline.Stacks,
                change.Function
            );
            var verdict = Beyond(estimate, functions, practical);
            if (verdict.Length > 0)
            {
                called?.Add(
                    $"{change.Function} {verdict} {Signed(change.SelfChange / frequencyHz * 1000)} ms per payment ({Range(estimate?.Interval(0.95), estimate?.Count)}), called from {callers}"
                );
            }
            text.Append(
                    $"| {ProfileFormat.Cell(change.Function)} | {callers} | {F(change.BaselineSelfPerPayment / frequencyHz * 1000)} | {F(change.CandidateSelfPerPayment / frequencyHz * 1000)} | "
                )
                .Append(
                    $"{Signed(change.SelfChange / frequencyHz * 1000)} | {Range(estimate?.Interval(0.95), estimate?.Count)} | {verdict} | "
                )
                .Append(
                    $"{F(change.BaselineTotalPerPayment / frequencyHz * 1000)} | {F(change.CandidateTotalPerPayment / frequencyHz * 1000)} |\n"
                );
        }
        text.Append('\n');
        return text.ToString();
    }

    private static string Range((double Low, double High)? interval, string? count) =>
        interval is { } i ? $"{Signed(i.Low)} … {Signed(i.High)} ({count})" : "-";

    private static string Beyond(ChangeEstimate? estimate, int functions, double practical)
    {
        if (estimate is null || Math.Abs(estimate.Mean) < practical)
        {
            return "";
        }
        var (low, high) = estimate.Interval(1 - 0.05 / Math.Max(1, functions));
        return low > 0 ? "grew"
            : high < 0 ? "shrank"
            : "";
    }

    /// <summary>
    /// The callers (up to three, nearest last) on the stacks where <paramref name="function"/> spends most of its self
    /// time, with its process: a leaf such as [vdso] or malloc says little until one sees who called it.
    /// </summary>
    public static string CalledFrom(FoldedStacks stacks, string function)
    {
        var chain = stacks
            .Counts.Select(c => (Frames: FoldedStacks.Frames(c.Key), Count: c.Value))
            .Where(c => c.Frames.Length > 1 && c.Frames[^1] == function)
            .GroupBy(c =>
                c.Frames.Length > 2 ? c.Frames[0] + ": " + string.Join(" › ", c.Frames[1..^1].TakeLast(3)) : c.Frames[0]
            )
            .OrderByDescending(g => g.Sum(c => c.Count))
            .ThenBy(g => g.Key, StringComparer.Ordinal)
            .FirstOrDefault()
            ?.Key;
        return chain is null ? "-" : chain.Replace("|", "\\|", StringComparison.Ordinal);
    }

    /// <summary>Each function's self CPU ms per payment in one profile.</summary>
    public static Dictionary<string, double> SelfMs(FoldedStacks stacks, int payments, int frequencyHz) =>
        FunctionTable
            .Top(stacks, int.MaxValue)
            .ToDictionary(
                f => f.Function,
                f => f.SelfSamples * 1000.0 / frequencyHz / payments,
                StringComparer.Ordinal
            );

    /// <summary>Each candidate build's group against the baseline build's group of the same other parameters and node.</summary>
    private static IEnumerable<(Group Baseline, Group Candidate)> Pairs(
        IReadOnlyList<Group> groups,
        IReadOnlyList<string> builds
    )
    {
        if (builds.Count < 2)
        {
            yield break;
        }
        var byCell = groups
            .Where(g => g.Parameters.ContainsKey("Build"))
            .ToLookup(g => (CellOf(g.Parameters, "Build"), g.Node));
        foreach (var cell in byCell)
        {
            var baseline = cell.FirstOrDefault(g => g.Parameters["Build"] == builds[0]);
            if (baseline is null)
            {
                continue;
            }
            foreach (
                var candidate in builds
                    .Skip(1)
                    .Select(b => cell.FirstOrDefault(g => g.Parameters["Build"] == b))
                    .OfType<Group>()
            )
            {
                yield return (baseline, candidate);
            }
        }
    }

    private static string Describe(Group group, int frequencyHz) =>
        Invariant(
            $"{group.Stacks.Total} samples at {frequencyHz} Hz ({group.Stacks.Total * 1000.0 / frequencyHz / Math.Max(1, group.Payments):0.0} ms of node CPU per payment) over {group.Payments} payments in {group.PerTopology.Count} topolog{(group.PerTopology.Count == 1 ? "y" : "ies")}"
        )
        + (
            group.Stacks.MergedStacks > 0
                ? Invariant(
                    $"; {group.Stacks.MergedStacks} rare stacks ({group.Stacks.MergedSamples} samples) merged into [other stacks]"
                )
                : ""
        );

    /// <summary>A case's parameters without Topology (and <paramref name="without"/>), as a case key.</summary>
    public static string CellOf(IReadOnlyDictionary<string, string> parameters, string? without = null) =>
        CaseId.Of(parameters).KeyWithout(without is null ? [CaseId.TopologyName] : [CaseId.TopologyName, without]);

    private static string F(double value) =>
        double.IsFinite(value) ? value.ToString("0.00", CultureInfo.InvariantCulture) : "-";

    private static string Signed(double value) =>
        double.IsFinite(value) ? value.ToString("+0.00;-0.00;0.00", CultureInfo.InvariantCulture) : "-";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
