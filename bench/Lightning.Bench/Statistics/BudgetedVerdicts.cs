namespace Lightning.Bench.Statistics;

/// <summary>One round of a budgeted run: the topology pairs every case had after it, the minutes spent and the verdicts still open.</summary>
/// <param name="Iterations">The measured invocations per topology of the round's cases, by Concurrency.</param>
internal sealed record BudgetRound(int Round, int Pairs, double ElapsedSeconds, int Open, IReadOnlyDictionary<int, int>? Iterations = null)
{
    /// <summary>The cells the round measured: all in the first, then those with a primary verdict still open.</summary>
    public IReadOnlyList<string> Cells { get; init; } = [];
}

/// <summary>A primary verdict of a budgeted run as it ended: decided after <paramref name="Pairs"/> pairs, or still open.</summary>
/// <param name="PairsNeeded">Open only: the pairs in all that would decide it if the ratio and the pairs' spread stay as they are (null: not in sight).</param>
/// <param name="MinutesNeeded">Open only: what the missing pairs would cost at this run's pace.</param>
internal sealed record BudgetVerdict(string Cell, string Metric, string Candidate, string Verdict, int Pairs, int? PairsNeeded = null, double? MinutesNeeded = null);

/// <summary>What a budgeted run (--max-time) did: its rounds, why it stopped, each primary verdict.</summary>
internal sealed record BudgetReport(double BudgetSeconds, IReadOnlyList<BudgetRound> Rounds, string StoppedBecause, IReadOnlyList<BudgetVerdict> Verdicts)
{
    public const string Method = "Lai's confidence sequence (normal mixture, g = 2) on the pairs' log ratios, valid under looking after every pair";
}

/// <summary>
/// The rules of a budgeted run: which verdicts it waits for (each build's mean time and payments/s against the
/// baseline, in every case), whether another round fits the budget, and what an open verdict would need.
/// </summary>
internal static class BudgetedVerdicts
{
    public const string AllDecided = "every primary verdict decided";

    public static bool IsPrimary(ArmComparison c) =>
        c.Kind == "build" && (c.Metric == ComparisonMetric.MeanTime.Name || c.Metric == ComparisonMetric.Throughput.Name);

    public static IReadOnlyList<ArmComparison> Open(RunComparisons run) =>
        run.Comparisons.Where(IsPrimary).Where(c => c.Verdict == Verdict.Unknown).ToList();

    /// <summary>Whether one more round (a pair per case) of about <paramref name="secondsPerRound"/> ends within the budget.</summary>
    public static bool NextRoundFits(double elapsedSeconds, double budgetSeconds, double secondsPerRound) =>
        elapsedSeconds + secondsPerRound <= budgetSeconds;

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
    public static IReadOnlyList<BudgetVerdict> Summarise(RunComparisons last, IReadOnlyDictionary<string, int> firstDecided, double secondsPerPair) =>
        last.Comparisons.Where(IsPrimary).Select(c =>
        {
            var pairs = c.Interval.BaselineTopologies;
            if (c.Verdict != Verdict.Unknown)
            {
                return new BudgetVerdict(c.Cell, c.Metric, c.Candidate, c.Verdict, firstDecided.TryGetValue(Key(c), out var at) ? at : pairs);
            }
            var needed = PairsNeeded(c);
            return new BudgetVerdict(c.Cell, c.Metric, c.Candidate, c.Verdict, pairs, needed,
                needed is { } n && secondsPerPair > 0 ? Math.Max(0, n - pairs) * secondsPerPair / 60 : null);
        }).ToList();

    public static string Key(ArmComparison c) => $"{c.Cell}|{c.Metric}|{c.Candidate}";
}
