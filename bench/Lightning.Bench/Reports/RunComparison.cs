using System.Globalization;
using System.Text;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// ./run.sh --compare A B: the cases two runs share, with the method of a run's own comparisons (topologies as the
/// unit), unpaired since the runs' topologies did not run side by side.
/// </summary>
internal static class RunComparison
{
    /// <summary>
    /// Why the runs' figures cannot be judged against each other, in one line, or null when they can: runs measured
    /// under different conditions (<see cref="MeasurementConditions"/>: one under Valgrind and one not, on a swarm and on
    /// one host, sampled by perf or not, back to back or not) measure different things, however their cases match.
    /// </summary>
    public static string? Refusal(RunSummary a, Manifest? manifestA, RunSummary b, Manifest? manifestB)
    {
        var differences = a.ConditionsOr(manifestA).DifferencesFrom(b.ConditionsOr(manifestB), "A", "B");
        return differences.Count == 0
            ? null
            : $"A and B were measured differently ({string.Join("; ", differences)}): their figures do not mean the same thing; compare runs measured the same way";
    }

    public static string Render(
        string nameA,
        RunSummary a,
        string nameB,
        RunSummary b,
        double thresholdPercent,
        int seed,
        double instructionsThresholdPercent = ComparisonMetric.InstructionsThresholdPercent
    )
    {
        var text = new StringBuilder();
        text.AppendLine(Invariant($"A: {nameA} ({a.Scenario}, run {a.RunId}, invoices {a.Invoices})"));
        text.AppendLine(Invariant($"B: {nameB} ({b.Scenario}, run {b.RunId}, invoices {b.Invoices})"));
        text.AppendLine();
        text.AppendLine(
            "Two runs differ by more than their builds: the machine's state, other tenants and the day add variance a single run does not "
                + "have, and their topologies cannot be paired in time. A difference here is weaker evidence than the same difference within one run "
                + "(--build NAME=IMAGE for each build, interleaved); a verdict here is only as good as both runs' number of topologies."
        );
        if (a.Scenario != b.Scenario)
        {
            text.AppendLine(
                $"note: the runs are of different scenarios ({a.Scenario}, {b.Scenario}); cases are matched by their parameters"
            );
        }
        if (a.Invoices != b.Invoices)
        {
            text.AppendLine(
                $"note: invoices were {a.Invoices} in A and {b.Invoices} in B, so latencies measure different work"
            );
        }
        // Two runs are not interleaved: a busy machine under one of them is in its figures, not in both.
        foreach (var (name, run) in new[] { ("A", a), ("B", b) }.Where(r => r.Item2.MachineLoad is not null))
        {
            text.AppendLine(
                run.MachineLoad!.BusyNote is { } busy
                    ? $"note: {name}'s machine was busy: {busy}"
                    : $"{name}'s machine: {run.MachineLoad.Description}"
            );
        }
        foreach (var (name, run) in new[] { ("A", a), ("B", b) }.Where(r => r.Item2.Interrupted is not null))
        {
            text.AppendLine(
                $"note: {run.Interrupted} stopped {name} before its end: only the cases it finished are compared"
            );
        }
        text.AppendLine();
        var counted = a.Cases.Concat(b.Cases).Any(c => c.Instructions is not null);
        var thresholds = counted
            ? $"±{instructionsThresholdPercent.ToString("0.##", CultureInfo.InvariantCulture)} % for instructions"
            : $"±{thresholdPercent.ToString("0.##", CultureInfo.InvariantCulture)} %";
        text.AppendLine(
            $"| case | metric | A | B | A mean | B mean | B/A | 95 % interval | topologies | p | verdict ({thresholds}) |"
        );
        text.AppendLine("|---|---|---|---|---:|---:|---:|---|---:|---:|---|");
        var armsA = Arms(a);
        var armsB = Arms(b);
        var rows = 0;
        foreach (var ((cell, traces), buildsA) in armsA)
        {
            if (!armsB.TryGetValue((cell, traces), out var buildsB))
            {
                continue;
            }
            foreach (var (buildA, topologiesA) in buildsA)
            {
                foreach (var (buildB, topologiesB) in buildsB)
                {
                    var metrics = ComparisonMetric.For(
                        topologiesA.Concat(topologiesB).Select(TopologySample.Of).ToList()
                    );
                    foreach (
                        var metric in metrics.Where(m =>
                            topologiesA.Concat(topologiesB).All(c => Values(m, c).Count > 0)
                        )
                    )
                    {
                        var threshold = metric.IsInstructions ? instructionsThresholdPercent : thresholdPercent;
                        var valuesA = topologiesA.Select(c => Values(metric, c)).ToList();
                        var valuesB = topologiesB.Select(c => Values(metric, c)).ToList();
                        var interval = TopologyComparison.Compare(valuesA, valuesB, paired: false, seed);
                        var range = interval.HasInterval
                            ? Invariant($"{interval.Low:0.000} – {interval.High:0.000}")
                            : "-";
                        var label =
                            cell
                            + (
                                traces.Length > 0 && armsA.Keys.Select(k => k.Traces).Distinct().Count() > 1
                                    ? $", traces {traces}"
                                    : ""
                            );
                        text.AppendLine(
                            Invariant(
                                $"| {label} | {metric.Name} | {buildA} | {buildB} | {Mean(valuesA, metric)}{Unit(metric)} | {Mean(valuesB, metric)}{Unit(metric)} | {interval.Ratio:0.000} | {range} | {topologiesA.Count} + {topologiesB.Count} | {P(interval.PValue)} | {Verdict.Of(interval, threshold, metric.HigherIsWorse)} |"
                            )
                        );
                        rows++;
                    }
                }
            }
        }
        if (rows == 0)
        {
            text.AppendLine("(the runs share no case)");
        }
        var cellsA = armsA.Keys.ToHashSet();
        var cellsB = armsB.Keys.ToHashSet();
        var only = cellsA
            .Except(cellsB)
            .Select(k => $"A {k.Cell}")
            .Concat(cellsB.Except(cellsA).Select(k => $"B {k.Cell}"))
            .ToList();
        if (only.Count > 0)
        {
            text.AppendLine();
            text.AppendLine($"not in both: {string.Join("; ", only)}");
        }
        if (a.Cases.Concat(b.Cases).GroupBy(c => c.Id.Cell.Label + c.Id.Arm).Any(g => g.Count() < 2))
        {
            text.AppendLine();
            text.AppendLine(
                "A case with one topology has no interval: rerun with --topologies 2 or more (the default is several)."
            );
        }
        return text.ToString().TrimEnd();
    }

    /// <summary>(cell, trace mode) → build → its topologies, in topology order.</summary>
    private static Dictionary<(string Cell, string Traces), Dictionary<string, List<CaseSummary>>> Arms(
        RunSummary run
    ) =>
        run
            .Cases.Where(c => c.IterationsMs.Count > 0)
            .GroupBy(c => (c.Id.Cell.Label, c.Id.Arm.Traces))
            .ToDictionary(
                g => g.Key,
                g =>
                    g.GroupBy(c => c.Id.Arm.Build).ToDictionary(b => b.Key, b => b.OrderBy(c => c.Id.Topology).ToList())
            );

    private static IReadOnlyList<double> Values(ComparisonMetric metric, CaseSummary c) =>
        metric.IterationValues(TopologySample.Of(c));

    private static string Mean(List<IReadOnlyList<double>> values, ComparisonMetric metric) =>
        values
            .Select(v => v.Average())
            .Average()
            .ToString(metric.IsInstructions ? "0.000" : "0.0", CultureInfo.InvariantCulture);

    private static string Unit(ComparisonMetric metric) => metric.Unit.Length == 0 ? "" : $" {metric.Unit}";

    private static string P(double p) => double.IsNaN(p) ? "-" : p.ToString("0.###", CultureInfo.InvariantCulture);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
