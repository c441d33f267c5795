using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>
/// The rules of a budgeted run: which verdicts it waits for (each build's mean time and payments/s against the
/// baseline, in every case), whether another round fits the budget, and what an open verdict would need.
/// </summary>
internal static class BudgetedVerdicts
{
    public const string AllDecided = "every primary verdict decided";

    /// <summary>What a run given --decide-on stops for once every such verdict is decided.</summary>
    public const string AllAskedDecided = "every verdict of --decide-on decided";

    public static bool IsPrimary(ArmComparison c) =>
        c.Kind == "build" && (c.Metric == ComparisonMetric.MeanTime.Name || ComparisonMetric.NamesThroughput(c.Metric));

    /// <summary>Whether a budgeted run waits for this verdict: a primary one, or with --decide-on a build's verdict on one of its metrics.</summary>
    public static bool Decides(ArmComparison c, IReadOnlyList<string> decideOn) =>
        decideOn.Count == 0 ? IsPrimary(c) : c.Kind == "build" && decideOn.Contains(c.Metric);

    public static IReadOnlyList<ArmComparison> Open(RunComparisons run, IReadOnlyList<string>? decideOn = null) =>
        run.Comparisons.Where(c => Decides(c, decideOn ?? [])).Where(c => c.Verdict == Verdict.Unknown).ToList();

    /// <summary>--decide-on's metrics that no build verdict of the run has (a metric of another workload, say), or none.</summary>
    public static IReadOnlyList<string> Missing(RunComparisons run, IReadOnlyList<string> decideOn) =>
        decideOn.Where(m => !run.Comparisons.Any(c => c.Kind == "build" && c.Metric == m)).ToList();

    /// <summary>
    /// Why the rounds stop with nothing left to wait for: every verdict they wait for decided, or a metric --decide-on
    /// names that no build verdict has (one of another workload, say); null while some are open.
    /// </summary>
    public static string? Settled(RunComparisons run, IReadOnlyList<string> decideOn) =>
        Missing(run, decideOn) is { Count: > 0 } missing
            ? $"--decide-on {string.Join(", ", missing)}: no build verdict of this run has it (its metrics: {string.Join(", ", run.Comparisons.Where(c => c.Kind == "build").Select(c => c.Metric).Distinct())})"
        : Open(run, decideOn).Count > 0 ? null
        : decideOn.Count == 0 ? AllDecided
        : AllAskedDecided;

    /// <summary>
    /// The open cells that get a pair next round, sharing the time (not the pairs) evenly: each whose topologies took at
    /// most the least "time so far + one more pair" among the open cells. A cell whose pairs cost three times another's
    /// (Concurrency=10 against 1, with its larger iteration counts) gets a pair every third round of the other's, so a
    /// cheap case is not held to the pace of a dear one; cells with the same spend get their pairs together. Then, in
    /// order of least time so far, those whose pairs still end within the budget (<paramref name="overheadSeconds"/>:
    /// a round's own cost besides its topologies); none when not even the first fits.
    /// </summary>
    public static IReadOnlyList<string> NextCells(
        IReadOnlyList<CellSpend> open,
        double elapsedSeconds,
        double budgetSeconds,
        double overheadSeconds
    )
    {
        if (open.Count == 0)
        {
            return [];
        }
        var line = open.Min(c => c.Seconds + c.SecondsPerPair);
        var next = new List<string>();
        var end = elapsedSeconds + Math.Max(0, overheadSeconds);
        foreach (
            var cell in open.Where(c => c.Seconds <= line + 1e-9)
                .OrderBy(c => c.Seconds)
                .ThenBy(c => c.Cell, StringComparer.Ordinal)
        )
        {
            if (end + cell.SecondsPerPair > budgetSeconds)
            {
                continue;
            }
            end += cell.SecondsPerPair;
            next.Add(cell.Cell);
        }
        return next;
    }

    /// <summary>
    /// Each cell's pairs (topology indexes with every arm's figures) and the seconds its topologies were up: the union of
    /// their windows from the start of their containers to their removal (or <paramref name="now"/>), so alternating arms
    /// (live at once) count once.
    /// </summary>
    /// <param name="now">The end of a topology still ending (a round's last group, behind the next round's setup).</param>
    public static IReadOnlyList<CellSpend> Spend(
        IEnumerable<Results.CaseResults> cases,
        IReadOnlyCollection<string> cells,
        DateTimeOffset now
    )
    {
        var byCell = cases
            .Where(c => c.Topology is not null)
            .GroupBy(c => c.Id.Cell.Label)
            .ToDictionary(g => g.Key, g => g.ToList());
        return cells
            .Select(cell =>
            {
                if (!byCell.TryGetValue(cell, out var list))
                {
                    return new CellSpend(cell, 0, 0);
                }
                var arms = list.Select(c => c.Id.Arm).Distinct().Count();
                var pairs = list.GroupBy(c => c.Id.Topology)
                    .Count(g => g.Count() >= arms && g.All(c => c.Figures is not null));
                var seconds = 0.0;
                var (from, to) = (DateTimeOffset.MinValue, DateTimeOffset.MinValue);
                foreach (
                    var (start, end) in list.Select(c => (c.Topology!.Started, c.Topology.Ended ?? now))
                        .OrderBy(w => w.Started)
                )
                {
                    if (start > to)
                    {
                        seconds += (to - from).TotalSeconds;
                        (from, to) = (start, end);
                    }
                    else if (end > to)
                    {
                        to = end;
                    }
                }
                seconds += (to - from).TotalSeconds;
                return new CellSpend(cell, pairs, seconds);
            })
            .ToList();
    }

    /// <summary>
    /// The pairs in all after which the confidence sequence would be narrow enough to decide, if the ratio and the
    /// pairs' spread stay as they are: its half-width must fit between the ratio and the threshold.
    /// </summary>
    public static int? PairsNeeded(ArmComparison c)
    {
        if (c.Precision is not { } precision || !(c.Interval.Ratio > 0) || c.ThresholdPercent is not { } threshold)
        {
            return null;
        }
        var gap = Math.Abs(Math.Abs(Math.Log(c.Interval.Ratio)) - Math.Log(1 + threshold / 100));
        return gap < 1e-9 ? null : ConfidenceSequence.PairsFor(gap, precision.PairSdPercent / 100);
    }

    /// <summary>Each primary verdict at the end: decided ones with the pairs they were first decided at, open ones with what they need.</summary>
    /// <param name="secondsPerPair">What a pair of the verdict's cell costs at this run's pace.</param>
    public static IReadOnlyList<BudgetVerdict> Summarise(
        RunComparisons last,
        IReadOnlyDictionary<string, int> firstDecided,
        Func<string, double> secondsPerPair
    ) =>
        last
            .Comparisons.Where(IsPrimary)
            .Select(c =>
            {
                var pairs = c.Interval.BaselineTopologies;
                if (c.Verdict != Verdict.Unknown)
                {
                    return new BudgetVerdict(
                        c.Cell,
                        c.Metric,
                        c.Candidate,
                        c.Verdict,
                        firstDecided.TryGetValue(Key(c), out var at) ? at : pairs
                    );
                }
                var needed = PairsNeeded(c);
                return new BudgetVerdict(
                    c.Cell,
                    c.Metric,
                    c.Candidate,
                    c.Verdict,
                    pairs,
                    needed,
                    needed is { } n && secondsPerPair(c.Cell) > 0
                        ? Math.Max(0, n - pairs) * secondsPerPair(c.Cell) / 60
                        : null
                );
            })
            .ToList();

    public static string Key(ArmComparison c) => $"{c.Cell}|{c.Metric}|{c.Candidate}";
}
