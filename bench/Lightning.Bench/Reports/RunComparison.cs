using System.Globalization;
using System.Text;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>./run.sh --compare A B: the cases two runs share, side by side, with B/A and a Welch test on their iterations.</summary>
public static class RunComparison
{
    public static string Render(string nameA, RunSummary a, string nameB, RunSummary b)
    {
        var casesA = ByKey(a);
        var casesB = ByKey(b);
        var text = new StringBuilder();
        text.AppendLine(Invariant($"A: {nameA} ({a.Scenario}, run {a.RunId}, invoices {a.Invoices})"));
        text.AppendLine(Invariant($"B: {nameB} ({b.Scenario}, run {b.RunId}, invoices {b.Invoices})"));
        text.AppendLine();
        if (a.Scenario != b.Scenario)
        {
            text.AppendLine($"note: the runs are of different scenarios ({a.Scenario}, {b.Scenario}); cases are matched by their parameters");
        }
        if (a.Invoices != b.Invoices)
        {
            text.AppendLine($"note: invoices were {a.Invoices} in A and {b.Invoices} in B, so latencies measure different work");
        }
        text.AppendLine("| case | A mean ms | B mean ms | B/A | A payments/s | B payments/s | A p95 ms | B p95 ms | beyond noise |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---|");
        foreach (var (key, casesOfA) in casesA)
        {
            if (!casesB.TryGetValue(key, out var casesOfB))
            {
                continue;
            }
            // A run that compared builds has one case per build for each key: every pair is a row.
            foreach (var caseA in casesOfA)
            {
                foreach (var caseB in casesOfB)
                {
                    var label = casesOfA.Count > 1 || casesOfB.Count > 1 ? $"{key} ({BuildOf(caseA)} / {BuildOf(caseB)})" : key;
                    var comparison = BuildComparison.Compare(caseB.IterationsMs, caseA.IterationsMs);
                    text.AppendLine(Invariant(
                        $"| {label} | {caseA.MeanMs:0.0} | {caseB.MeanMs:0.0} | {comparison.Ratio:0.00} | {caseA.PaymentsPerSecond:0.0} | {caseB.PaymentsPerSecond:0.0} | {caseA.P95Ms:0.0} | {caseB.P95Ms:0.0} | {comparison.Verdict} |"));
                }
            }
        }
        var onlyA = casesA.Keys.Except(casesB.Keys).ToList();
        var onlyB = casesB.Keys.Except(casesA.Keys).ToList();
        if (onlyA.Count + onlyB.Count > 0)
        {
            text.AppendLine();
            text.AppendLine($"not in both: {string.Join("; ", onlyA.Select(k => $"A {k}").Concat(onlyB.Select(k => $"B {k}")))}");
        }
        return text.ToString().TrimEnd();
    }

    /// <summary>Cases by their parameters other than the build (two runs usually differ in exactly that).</summary>
    private static Dictionary<string, List<CaseSummary>> ByKey(RunSummary run) =>
        run.Cases.GroupBy(c => CaseKey.From(c.Parameters
                .Where(p => p.Key != nameof(ScenarioBenchmark.Build))
                .Select(p => new KeyValuePair<string, object>(p.Key, p.Value))))
            .ToDictionary(g => g.Key, g => g.ToList());

    private static string BuildOf(CaseSummary c) => c.Parameters.GetValueOrDefault(nameof(ScenarioBenchmark.Build)) ?? "?";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
