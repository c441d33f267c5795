using System.Text;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Where a candidate build spends more or less CPU per payment than a baseline, function by function. Each profile is
/// divided by its own payment count, so captures of different lengths compare.
/// </summary>
public static class ProfileDiff
{
    /// <summary>
    /// The <paramref name="count"/> functions whose self samples per payment moved most (either way), a function seen
    /// in one build only having 0 in the other.
    /// </summary>
    public static IReadOnlyList<FunctionChange> Changes(FoldedStacks baseline, double baselinePayments, FoldedStacks candidate, double candidatePayments, int count)
    {
        ProfileFormat.RequirePositive(baselinePayments, nameof(baselinePayments));
        ProfileFormat.RequirePositive(candidatePayments, nameof(candidatePayments));
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var before = FunctionTable.Tally(baseline);
        var after = FunctionTable.Tally(candidate);
        return before.Keys.Union(after.Keys, StringComparer.Ordinal)
            .Select(function =>
            {
                var b = before.GetValueOrDefault(function);
                var a = after.GetValueOrDefault(function);
                return new FunctionChange(function,
                    b.Self / baselinePayments, a.Self / candidatePayments,
                    b.Total / baselinePayments, a.Total / candidatePayments,
                    Share(b.Self, baseline.Total), Share(a.Self, candidate.Total));
            })
            .OrderByDescending(c => Math.Abs(c.SelfChange))
            .ThenBy(c => c.Function, StringComparer.Ordinal)
            .Take(count)
            .ToList();
    }

    /// <summary>
    /// A markdown section: CPU per payment of both builds, then the functions that moved most, in ms per payment
    /// (samples ÷ <paramref name="samplesPerSecond"/> × 1000 per payment), the change in ms and in %, and each build's
    /// self share.
    /// </summary>
    public static string Markdown(string title, FoldedStacks baseline, double baselinePayments, FoldedStacks candidate, double candidatePayments,
        double samplesPerSecond, int count)
    {
        ProfileFormat.RequirePositive(samplesPerSecond, nameof(samplesPerSecond));
        var changes = Changes(baseline, baselinePayments, candidate, candidatePayments, count);
        double Ms(double samplesPerPayment) => samplesPerPayment / samplesPerSecond * 1000;
        var before = Ms(baseline.Total / baselinePayments);
        var after = Ms(candidate.Total / candidatePayments);
        var text = new StringBuilder();
        text.Append("## ").Append(title).Append('\n').Append('\n');
        text.Append($"CPU per payment: baseline {ProfileFormat.Ms(before)} ms ({ProfileFormat.Count(baseline.Total)} samples, {ProfileFormat.Number(baselinePayments)} payments), ")
            .Append($"candidate {ProfileFormat.Ms(after)} ms ({ProfileFormat.Count(candidate.Total)} samples, {ProfileFormat.Number(candidatePayments)} payments), ")
            .Append($"change {ProfileFormat.SignedMs(after - before)} ms ({Relative(after - before, before)}). Sampled at {ProfileFormat.Number(samplesPerSecond)} Hz.\n\n");
        text.Append("| Function | Self ms/payment baseline | Self ms/payment candidate | Change ms/payment | Change % | Total ms/payment baseline | Total ms/payment candidate | Self % baseline | Self % candidate |\n");
        text.Append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        foreach (var c in changes)
        {
            text.Append($"| {ProfileFormat.Cell(c.Function)} | {ProfileFormat.Ms(Ms(c.BaselineSelfPerPayment))} | {ProfileFormat.Ms(Ms(c.CandidateSelfPerPayment))} | ")
                .Append($"{ProfileFormat.SignedMs(Ms(c.SelfChange))} | {Relative(c.SelfChange, c.BaselineSelfPerPayment)} | ")
                .Append($"{ProfileFormat.Ms(Ms(c.BaselineTotalPerPayment))} | {ProfileFormat.Ms(Ms(c.CandidateTotalPerPayment))} | ")
                .Append($"{ProfileFormat.Percent(c.BaselineSelfShare)} | {ProfileFormat.Percent(c.CandidateSelfShare)} |\n");
        }
        return text.Append('\n').ToString();
    }

    /// <summary>A change relative to its baseline, "new" for something the baseline did not have.</summary>
    internal static string Relative(double change, double baseline) =>
        baseline > 0 ? ProfileFormat.SignedPercent(change / baseline) + " %" : change > 0 ? "new" : ProfileFormat.Missing;

    private static double Share(long samples, long total) => total > 0 ? (double)samples / total : 0;
}
