namespace Lightning.Bench.Bisection;

/// <summary>
/// The decisions of a bisection over a list of commits, GOOD first and BAD last, as git bisect makes them but on
/// verdicts: BAD is measured first and its verdict against GOOD (slower or faster) is the step's direction (same or
/// unknown: no step to look for); then the commit nearest the middle of what is still open, between the last good and
/// the first bad, is measured; a verdict in the step's direction is bad, same or the other way is good, and a commit
/// that could not be measured (skip) or whose verdict stayed unknown is passed over for the next nearest the middle,
/// never guessed. It ends at the first bad commit once nothing is open before it, or with the skipped and unknown
/// commits it may be. Pure: the measuring is the caller's (<see cref="RunAsync"/>'s function), so a history of
/// verdicts can be scripted. When GOOD is not an ancestor of BAD, the commit after GOOD is their merge base, measured
/// right after BAD as git bisect tests a merge base first: in BAD's direction already, the step is on GOOD's own line
/// (between the merge base and GOOD), not on BAD's, and the search ends saying so.
/// </summary>
internal sealed class BisectSearch
{
    private readonly Dictionary<int, BisectStep> byIndex = [];
    private readonly List<BisectStep> steps = [];

    /// <param name="commits">GOOD, then every commit to measure, oldest first, BAD last.</param>
    /// <param name="mergeBase">Whether commits[1] is GOOD's and BAD's merge base (GOOD not an ancestor of BAD).</param>
    public BisectSearch(IReadOnlyList<string> commits, bool mergeBase = false)
    {
        if (commits.Count < 2)
        {
            throw new ArgumentException("a bisection needs GOOD and BAD, two commits at least", nameof(commits));
        }
        if (mergeBase && commits.Count < 3)
        {
            throw new ArgumentException("a merge base lies between GOOD and BAD", nameof(commits));
        }
        Commits = commits;
        BadIndex = commits.Count - 1;
        MergeBase = mergeBase;
    }

    /// <summary>Whether the commit after GOOD (index 1) is GOOD's and BAD's merge base.</summary>
    public bool MergeBase { get; }

    /// <summary>GOOD, then every commit after it up to BAD, oldest first.</summary>
    public IReadOnlyList<string> Commits { get; }

    /// <summary>BAD's verdict word against GOOD (slower or faster) once measured as a step; null before.</summary>
    public string? Direction { get; private set; }

    /// <summary>The last commit known good (GOOD itself at first).</summary>
    public int GoodIndex { get; private set; }

    /// <summary>The first commit known bad (BAD, once measured as one).</summary>
    public int BadIndex { get; private set; }

    /// <summary>The steps in the order they were measured.</summary>
    public IReadOnlyList<BisectStep> Steps => steps;

    /// <summary>Set once the search is over.</summary>
    public BisectEnd? End { get; private set; }

    /// <summary>The commits still open: neither measured nor outside (last good, first bad).</summary>
    public IReadOnlyList<int> Open =>
        Direction is null
            ? []
            : Enumerable
                .Range(GoodIndex + 1, Math.Max(0, BadIndex - GoodIndex - 1))
                .Where(i => !byIndex.ContainsKey(i))
                .ToList();

    /// <summary>The commit to measure next (its index), or null when the search is over.</summary>
    public int? Next()
    {
        if (End is not null)
        {
            return null;
        }
        var bad = Commits.Count - 1;
        if (!byIndex.ContainsKey(bad))
        {
            return bad;
        }
        if (MergeBase && Direction is not null && !byIndex.ContainsKey(1))
        {
            return 1;
        }
        var open = Open;
        if (open.Count == 0)
        {
            End = Conclude();
            return null;
        }
        // Nearest the middle of the open stretch, the older one of two as near: each answer halves what is left.
        var middle = (GoodIndex + BadIndex) / 2.0;
        return open.OrderBy(i => Math.Abs(i - middle)).ThenBy(i => i).First();
    }

    /// <summary>Records what the step measured of the commit at <paramref name="index"/>, and what that makes it.</summary>
    public BisectStep Record(int index, StepMeasurement measurement)
    {
        if (End is not null || byIndex.ContainsKey(index) || index <= 0 || index >= Commits.Count)
        {
            throw new InvalidOperationException($"commit {index} is not one to measure now");
        }
        var last = Commits.Count - 1;
        var outcome = Classify(measurement, index == last ? null : Direction);
        var step = new BisectStep(steps.Count + 1, index, Commits[index], outcome, measurement);
        steps.Add(step);
        byIndex[index] = step;
        if (index == last)
        {
            if (outcome == StepOutcome.Bad)
            {
                Direction = measurement.Verdict;
            }
            else
            {
                End = BisectEnd.Nothing(
                    outcome switch
                    {
                        StepOutcome.Skip =>
                            $"BAD could not be measured ({measurement.Skipped}): a bisection needs BAD's verdict against GOOD",
                        StepOutcome.Unknown =>
                            "BAD's verdict against GOOD stayed unknown within its budget: no step to look for yet (give each step more time with --max-time, or a larger --threshold)",
                        _ => $"BAD is {measurement.Verdict} against GOOD: no step to look for",
                    }
                );
            }
            return step;
        }
        if (outcome == StepOutcome.Bad && MergeBase && index == 1)
        {
            End = BisectEnd.OnGoodsLine(
                $"the merge base of GOOD and BAD is already {Direction} than GOOD: the step lies on GOOD's own line, between the merge base and GOOD, not on BAD's (bisect with the merge base as GOOD and GOOD as BAD to find it)"
            );
        }
        else if (outcome == StepOutcome.Bad)
        {
            BadIndex = index;
        }
        else if (outcome == StepOutcome.Good)
        {
            GoodIndex = index;
        }
        return step;
    }

    /// <summary>Measures commits with <paramref name="measure"/> until the search is over; <paramref name="recorded"/> hears of each step.</summary>
    public async Task<BisectEnd> RunAsync(
        Func<int, CancellationToken, Task<StepMeasurement>> measure,
        Action<BisectStep>? recorded = null,
        CancellationToken ct = default
    )
    {
        while (Next() is { } index)
        {
            var step = Record(index, await measure(index, ct));
            recorded?.Invoke(step);
        }
        return End!;
    }

    /// <summary>bad: the direction's verdict; good: same, or the other way; at BAD (no direction yet) any move is bad.</summary>
    private static StepOutcome Classify(StepMeasurement measurement, string? direction) =>
        measurement switch
        {
            { Skipped: not null } or { Verdict: null } => StepOutcome.Skip,
            { Verdict: "slower" or "faster" } when direction is null || measurement.Verdict == direction =>
                StepOutcome.Bad,
            { Verdict: "slower" or "faster" or "same" } => StepOutcome.Good,
            { Verdict: "unknown" } => StepOutcome.Unknown,
            _ => StepOutcome.Skip,
        };

    /// <summary>The first bad commit, or it and the passed-over commits just before it that it may be instead.</summary>
    private BisectEnd Conclude()
    {
        var before = Enumerable.Range(GoodIndex + 1, Math.Max(0, BadIndex - GoodIndex - 1)).ToList();
        return before.Count == 0 ? BisectEnd.Found(BadIndex) : BisectEnd.Among([.. before, BadIndex]);
    }
}
