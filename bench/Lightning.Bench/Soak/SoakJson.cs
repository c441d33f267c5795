using System.Text.Json;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Soak;

/// <summary>soak.json: the soak's figures, trends and budgets for machines (unknown figures are null).</summary>
internal static class SoakJson
{
    public const string FileName = "soak.json";

    public static void Write(string directory, SoakFacts facts, SoakFindings findings)
    {
        var json = new
        {
            scenario = facts.Scenario,
            limit = facts.Limit,
            elapsed_s = facts.Elapsed.TotalSeconds,
            payments = facts.Succeeded,
            failed = facts.Failed,
            stopped_by = facts.StoppedBy,
            figures = findings.Figures.ToDictionary(f => f.Key, f => N(f.Value)),
            trends = findings.Trends.Select(t => new
            {
                series = t.Series,
                per = t.Per,
                median = N(t.Estimate.Median),
                relative = N(t.Estimate.Relative),
                low = N(t.Estimate.RelativeLow),
                high = N(t.Estimate.RelativeHigh),
                verdict = t.Verdict,
                // Memory and databases: the change per payment in the series' own unit, and its interval.
                unit = t.Unit,
                change = t.Unit is null ? null : N(t.Estimate.Slope * t.Estimate.Per),
                change_low = t.Unit is null ? null : N(t.Estimate.AbsoluteInterval.Low),
                change_high = t.Unit is null ? null : N(t.Estimate.AbsoluteInterval.High),
            }),
            budgets = findings.Budgets.Select(b => new
            {
                budget = b.Budget,
                value = N(b.Value),
                unit = b.Unit,
                holds = b.Holds,
            }),
        };
        AtomicFile.WriteAllText(
            Path.Combine(directory, FileName),
            JsonSerializer.Serialize(json, new JsonSerializerOptions { WriteIndented = true })
        );
    }

    private static double? N(double value) => double.IsFinite(value) ? value : null;
}
