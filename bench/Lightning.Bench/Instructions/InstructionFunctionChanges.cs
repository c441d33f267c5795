using System.Globalization;
using System.Text;
using Lightning.Bench.Profiling;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Instructions;

/// <summary>
/// The functions of one node whose instructions per payment changed most between two builds of one case, from
/// paired topologies (baseline and candidate per-payment profiles with the same index were run next to each other).
/// <para>
/// Per function, the paired differences of its self count give a Student-t interval of the mean change. A function
/// is called <c>grew</c> or <c>shrank</c> when the interval excludes 0 and the change is at least
/// <see cref="MinimumChange"/>: <see cref="FunctionShareOfThreshold"/> of the node-level threshold, i.e. 0.1 % of the
/// node's instructions per payment at the 0.5 % default. A node-level change at the threshold is made of a few
/// functions' changes, so each of those that carries a fifth of it is named; smaller moves are real in counts this
/// deterministic, but every rebuild shifts thousands of instructions between inlined callers and callees, and naming
/// them would bury the change that matters. Only a function whose level (mean self count) in either build is at least
/// <see cref="MinimumChange"/> can move by that much, so exactly those are judged, and the intervals are widened
/// (Bonferroni) for their number: the table's calls together have a 5 % chance of naming any function that did not
/// change, not 5 % each.
/// </para>
/// </summary>
internal sealed class InstructionFunctionChanges
{
    /// <summary>The smallest change named, as a share of the node-level threshold.</summary>
    public const double FunctionShareOfThreshold = 0.2;

    /// <summary>How many callers a row names.</summary>
    public const int CallersShown = 3;

    private InstructionFunctionChanges(
        int pairs,
        double thresholdPercent,
        double baselineTotal,
        double candidateTotal,
        int judged,
        IReadOnlyList<InstructionFunctionChange> changes
    )
    {
        Pairs = pairs;
        ThresholdPercent = thresholdPercent;
        BaselineTotal = baselineTotal;
        CandidateTotal = candidateTotal;
        Judged = judged;
        Changes = changes;
    }

    /// <summary>Topology pairs compared.</summary>
    public int Pairs { get; }

    /// <summary>The node-level threshold, in percent of the node's instructions per payment.</summary>
    public double ThresholdPercent { get; }

    /// <summary>The node's mean instructions per payment in the baseline build.</summary>
    public double BaselineTotal { get; }

    public double CandidateTotal { get; }

    /// <summary>The smallest self change per payment that is called: <see cref="FunctionShareOfThreshold"/> × threshold × baseline total.</summary>
    public double MinimumChange => FunctionShareOfThreshold * ThresholdPercent / 100 * BaselineTotal;

    /// <summary>How many functions were judged (the Bonferroni family).</summary>
    public int Judged { get; }

    /// <summary>Every function of either build, the largest self change (either way) first.</summary>
    public IReadOnlyList<InstructionFunctionChange> Changes { get; }

    /// <param name="baseline">The baseline's per-payment profile of the node, one per topology.</param>
    /// <param name="candidate">The candidate's, paired with the baseline's by index.</param>
    /// <param name="thresholdPercent">The node-level threshold of the instruction metric, in percent (0.5 for 0.5 %).</param>
    public static InstructionFunctionChanges Compare(
        IReadOnlyList<InstructionProfile> baseline,
        IReadOnlyList<InstructionProfile> candidate,
        double thresholdPercent
    )
    {
        if (baseline.Count == 0 || baseline.Count != candidate.Count)
        {
            throw new ArgumentException(
                $"Expected as many candidate profiles as baseline ones, at least one; got {baseline.Count} and {candidate.Count}.",
                nameof(candidate)
            );
        }
        if (!(thresholdPercent > 0) || !double.IsFinite(thresholdPercent))
        {
            throw new ArgumentOutOfRangeException(
                nameof(thresholdPercent),
                thresholdPercent,
                "The threshold must be a positive percentage."
            );
        }
        var n = baseline.Count;
        var baselineTotal = baseline.Average(p => p.Total);
        var candidateTotal = candidate.Average(p => p.Total);
        var minimum = FunctionShareOfThreshold * thresholdPercent / 100 * baselineTotal;
        var functions = baseline.Concat(candidate).SelectMany(p => p.Functions.Keys).Distinct().ToList();
        var ambiguous = functions
            .GroupBy(f => (f.Process, f.Name))
            .Where(g => g.Count() > 1)
            .Select(g => g.Key)
            .ToHashSet();
        string Label(InstructionFunction f) => ambiguous.Contains((f.Process, f.Name)) ? f.WithObject : f.ToString();

        double Mean(
            IReadOnlyList<InstructionProfile> arm,
            Func<FunctionInstructions, double> count,
            InstructionFunction f
        ) => arm.Average(p => count(p[f]));
        bool IsJudged(InstructionFunction f) =>
            Math.Max(Math.Abs(Mean(baseline, c => c.Self, f)), Math.Abs(Mean(candidate, c => c.Self, f))) >= minimum;
        var judged = functions.Count(IsJudged);
        // Simultaneous 95 % intervals over the judged functions (Bonferroni).
        var confidence = 1 - (1 - TopologyComparison.Confidence) / Math.Max(1, judged);

        var callersOf = baseline
            .Concat(candidate)
            .SelectMany(p => p.Calls.Keys)
            .Where(c => c.Caller != c.Callee)
            .Distinct()
            .ToLookup(c => c.Callee, c => c.Caller);

        var changes = functions
            .Select(f =>
            {
                var (selfChange, selfLow, selfHigh) = PairedChange(baseline, candidate, p => p[f].Self, confidence);
                var (inclusiveChange, inclusiveLow, inclusiveHigh) = PairedChange(
                    baseline,
                    candidate,
                    p => p[f].Inclusive,
                    confidence
                );
                var isJudged = IsJudged(f);
                var call =
                    !isJudged || n < 2 || Math.Abs(selfChange) < minimum ? FunctionCall.None
                    : selfLow > 0 ? FunctionCall.Grew
                    : selfHigh < 0 ? FunctionCall.Shrank
                    : FunctionCall.None;
                var callers = callersOf[f]
                    .Select(caller =>
                        (
                            Caller: caller,
                            Change: candidate.Average(p => Edge(p, caller, f))
                                - baseline.Average(p => Edge(p, caller, f)),
                            Level: candidate.Average(p => Edge(p, caller, f))
                        )
                    )
                    .OrderByDescending(c => Math.Abs(c.Change))
                    .ThenByDescending(c => c.Level)
                    .ThenBy(c => c.Caller.Name, StringComparer.Ordinal)
                    .Take(CallersShown)
                    .Select(c => (Label(c.Caller), c.Change))
                    .ToList();
                return new InstructionFunctionChange(
                    f,
                    Label(f),
                    Mean(baseline, c => c.Self, f),
                    Mean(candidate, c => c.Self, f),
                    selfChange,
                    selfLow,
                    selfHigh,
                    Mean(baseline, c => c.Inclusive, f),
                    Mean(candidate, c => c.Inclusive, f),
                    inclusiveChange,
                    inclusiveLow,
                    inclusiveHigh,
                    callers,
                    isJudged,
                    call
                );
            })
            .OrderByDescending(c => Math.Abs(c.SelfChange))
            .ThenBy(c => c.Label, StringComparer.Ordinal)
            .ToList();
        return new InstructionFunctionChanges(n, thresholdPercent, baselineTotal, candidateTotal, judged, changes);
    }

    /// <summary>
    /// A markdown section: what the figures are, then the <paramref name="count"/> functions whose self count per
    /// payment moved most, and any called function beyond them, so no call is hidden.
    /// </summary>
    public string Markdown(string title, int count = 20)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var rows = Changes.Take(count).Concat(Changes.Skip(count).Where(c => c.Call != FunctionCall.None)).ToList();
        var text = new StringBuilder();
        text.Append("### ").Append(title).Append('\n').Append('\n');
        text.Append(
                "Instructions per payment (Ir counted under Valgrind's callgrind; the node's idle background subtracted), "
            )
            .Append(Whole(BaselineTotal))
            .Append(" in the baseline and ")
            .Append(Whole(CandidateTotal))
            .Append(" in the candidate. ");
        if (Pairs < 2)
        {
            text.Append("One topology pair: no interval and no call, functions ordered by their change alone.");
        }
        else
        {
            text.Append(Pairs.ToString(CultureInfo.InvariantCulture))
                .Append(
                    " topology pairs; changes are the mean paired difference with a 95 % Student-t interval made simultaneous over the "
                )
                .Append(Judged.ToString(CultureInfo.InvariantCulture))
                .Append(
                    " functions judged (Bonferroni). A function is called `grew` or `shrank` when its interval excludes 0 and its self change is at least "
                )
                .Append(Whole(MinimumChange))
                .Append(" instructions (")
                .Append((FunctionShareOfThreshold * ThresholdPercent).ToString("0.###", CultureInfo.InvariantCulture))
                .Append(" % of the baseline's instructions per payment, a fifth of the ")
                .Append(ThresholdPercent.ToString("0.###", CultureInfo.InvariantCulture))
                .Append(" % threshold).");
        }
        text.Append(
            " Self: in the function's own code; inclusive: with what it calls. Times measured under Valgrind are not reported.\n\n"
        );
        text.Append(
            "| Function | Baseline self | Candidate self | Self change | Inclusive change | Top callers (change of their calls) | Call |\n"
        );
        text.Append("|---|---:|---:|---:|---:|---|---|\n");
        foreach (var row in rows)
        {
            text.Append("| ")
                .Append(ProfileFormat.Cell(row.Label))
                .Append(" | ")
                .Append(Whole(row.BaselineSelf))
                .Append(" | ")
                .Append(Whole(row.CandidateSelf))
                .Append(" | ")
                .Append(WithInterval(row.SelfChange, row.SelfLow, row.SelfHigh))
                .Append(" | ")
                .Append(WithInterval(row.InclusiveChange, row.InclusiveLow, row.InclusiveHigh))
                .Append(" | ")
                .Append(
                    row.TopCallers.Count == 0
                        ? ProfileFormat.Missing
                        : string.Join(
                            ", ",
                            row.TopCallers.Select(c => ProfileFormat.Cell(c.Caller) + " (" + Signed(c.Change) + ")")
                        )
                )
                .Append(" | ")
                .Append(
                    row.Call switch
                    {
                        FunctionCall.Grew => "grew",
                        FunctionCall.Shrank => "shrank",
                        _ => ProfileFormat.Missing,
                    }
                )
                .Append(" |\n");
        }
        // A function only one build has is where a change enters: its self count may be small (the work is in what it
        // calls, listed above by self), so it is named here by what it costs with its calls.
        var entering = Changes
            .Where(c =>
                (c.BaselineInclusive == 0) != (c.CandidateInclusive == 0)
                && Math.Abs(c.InclusiveChange) >= MinimumChange
            )
            .OrderByDescending(c => Math.Abs(c.InclusiveChange))
            .Take(count)
            .ToList();
        if (entering.Count > 0)
        {
            text.Append("\nFunctions only one build has, by inclusive change: ")
                .Append(
                    string.Join(
                        "; ",
                        entering.Select(c =>
                            ProfileFormat.Cell(c.Label)
                            + " "
                            + WithInterval(c.InclusiveChange, c.InclusiveLow, c.InclusiveHigh)
                            + (c.CandidateInclusive == 0 ? " (baseline only)" : " (candidate only)")
                            + (
                                c.TopCallers.Count > 0
                                    ? ", called from " + ProfileFormat.Cell(c.TopCallers[0].Caller)
                                    : ""
                            )
                        )
                    )
                )
                .Append(".\n");
        }
        return text.ToString();
    }

    /// <summary>
    /// Mean of candidate − baseline over pairs, and its interval at <paramref name="confidence"/> (NaN with one pair; a
    /// point when all differences agree). Instruction counts have no sampling noise of their own.
    /// </summary>
    private static (double Mean, double Low, double High) PairedChange(
        IReadOnlyList<InstructionProfile> baseline,
        IReadOnlyList<InstructionProfile> candidate,
        Func<InstructionProfile, double> count,
        double confidence
    )
    {
        var differences = candidate.Zip(baseline, (c, b) => count(c) - count(b)).ToList();
        if (ChangeEstimate.Paired(differences, new double[differences.Count]) is not { } estimate)
        {
            return (differences.Average(), double.NaN, double.NaN);
        }
        var (low, high) = estimate.Interval(confidence);
        return (estimate.Mean, low, high);
    }

    private static double Edge(InstructionProfile profile, InstructionFunction caller, InstructionFunction callee) =>
        profile.Calls.GetValueOrDefault((caller, callee)).Inclusive;

    internal static string Whole(double value) =>
        !double.IsFinite(value)
            ? ProfileFormat.Missing
            : Math.Round(value).ToString("#,##0", CultureInfo.InvariantCulture);

    internal static string Signed(double value) =>
        !double.IsFinite(value)
            ? ProfileFormat.Missing
            : Math.Round(value).ToString("+#,##0;-#,##0;0", CultureInfo.InvariantCulture);

    private static string WithInterval(double change, double low, double high) =>
        double.IsFinite(low) && double.IsFinite(high)
            ? $"{Signed(change)} ({Signed(low)} … {Signed(high)})"
            : Signed(change);
}
