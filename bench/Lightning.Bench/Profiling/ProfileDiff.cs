namespace Lightning.Bench.Profiling;

/// <summary>
/// Where a candidate build spends more or less CPU per payment than a baseline, function by function. Each profile is
/// divided by its own payment count, so captures of different lengths compare.
/// </summary>
internal static class ProfileDiff
{
    /// <summary>
    /// The <paramref name="count"/> functions whose self samples per payment moved most (either way), a function seen
    /// in one build only having 0 in the other.
    /// </summary>
    public static IReadOnlyList<FunctionChange> Changes(
        FoldedStacks baseline,
        double baselinePayments,
        FoldedStacks candidate,
        double candidatePayments,
        int count
    )
    {
        ProfileFormat.RequirePositive(baselinePayments, nameof(baselinePayments));
        ProfileFormat.RequirePositive(candidatePayments, nameof(candidatePayments));
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var before = FunctionTable.Tally(baseline);
        var after = FunctionTable.Tally(candidate);
        return before
            .Keys.Union(after.Keys, StringComparer.Ordinal)
            .Select(function =>
            {
                var b = before.GetValueOrDefault(function);
                var a = after.GetValueOrDefault(function);
                return new FunctionChange(
                    function,
                    b.Self / baselinePayments,
                    a.Self / candidatePayments,
                    b.Total / baselinePayments,
                    a.Total / candidatePayments,
                    Share(b.Self, baseline.Total),
                    Share(a.Self, candidate.Total)
                );
            })
            .OrderByDescending(c => Math.Abs(c.SelfChange))
            .ThenBy(c => c.Function, StringComparer.Ordinal)
            .Take(count)
            .ToList();
    }

    /// <summary>A change relative to its baseline, "new" for something the baseline did not have.</summary>
    internal static string Relative(double change, double baseline) =>
        baseline > 0 ? ProfileFormat.SignedPercent(change / baseline) + " %"
        : change > 0 ? "new"
        : ProfileFormat.Missing;

    private static double Share(long samples, long total) => total > 0 ? (double)samples / total : 0;
}
