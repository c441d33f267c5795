using System.Globalization;
using System.Text;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// The comparisons and spreads of a run as people and programs read them: comparison.md (also printed after
/// BenchmarkDotNet's tables), comparisons.csv, and topologies.csv with one row per topology and metric, so anyone
/// can redo the analysis. Written when every case ran and the comparisons were computed.
/// </summary>
internal sealed class ComparisonReport : IRunEndOutput, IConsoleOutput
{
    public const string MarkdownFile = "comparison.md";
    public const string ComparisonsCsv = "comparisons.csv";
    public const string TopologiesCsv = "topologies.csv";

    public IReadOnlyList<string> Files => [MarkdownFile, ComparisonsCsv, TopologiesCsv];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.Completed && context.Results.Comparisons is { } comparisons)
        {
            Write(
                context.ResultsDirectory,
                comparisons,
                context.Results.Cases,
                context.Options.Builds,
                context.MachineLoad
            );
        }
        return Task.CompletedTask;
    }

    /// <summary>The machine while the run measured, in two lines: what comparison.md and the page start with (a busy run's verdicts stand: its pairs shared the load).</summary>
    public static string MachineMarkdown(MachineLoad? machine) =>
        machine is null
            ? ""
            : $"## The machine while the run measured\n\n{machine.Description}.\n\n"
                + (machine.BusyNote is { } busy ? $"**Busy machine**: {busy}.\n\n" : "");

    /// <summary>What each build is (its image per node and the options it starts its nodes with): a build's identity, before its verdicts.</summary>
    public static string BuildsMarkdown(IReadOnlyList<Topology.BuildSpec> builds)
    {
        if (builds.Count < 2 && builds.All(b => b.NodeOptions.Count == 0))
        {
            return "";
        }
        var text = new StringBuilder();
        text.AppendLine("## Builds");
        text.AppendLine();
        text.AppendLine("| build | image | node options |");
        text.AppendLine("|---|---|---|");
        foreach (var build in builds)
        {
            var images = string.Join(
                ", ",
                new[] { build.Image }.Concat(build.NodeImages.Select(n => $"{n.Key}: {n.Value}"))
            );
            text.AppendLine(
                $"| {build.Name} | `{images}` | {(build.NodeOptions.Count == 0 ? "-" : string.Join(" ", build.NodeOptions.Select(o => $"`{o}`")))} |"
            );
        }
        text.AppendLine();
        return text.ToString();
    }

    /// <summary>The tables of comparison.md, after BenchmarkDotNet's (the comparisons, what each node cost, the setup times).</summary>
    public void Print(RunResults results, TextWriter console)
    {
        if (results.Comparisons is not { } comparisons)
        {
            return;
        }
        console.WriteLine();
        console.WriteLine(Markdown(comparisons));
        console.WriteLine(NodeCostReport.Markdown(results.Cases));
        console.WriteLine(NodeCostReport.ProbeMarkdown(results.Cases));
        console.WriteLine(ScalingReport.Markdown(results.Cases));
        console.WriteLine(RouteAmountReport.Markdown(results.Cases));
        console.WriteLine(SetupReport.Markdown(results.Cases));
    }

    public static void Write(
        string directory,
        RunComparisons comparisons,
        IReadOnlyList<CaseResults> cases,
        IReadOnlyList<Topology.BuildSpec>? builds = null,
        MachineLoad? machine = null
    )
    {
        AtomicFile.WriteAllText(
            Path.Combine(directory, MarkdownFile),
            MachineMarkdown(machine)
                + BuildsMarkdown(builds ?? [])
                + Markdown(comparisons)
                + NodeCostReport.Markdown(cases)
                + NodeCostReport.ProbeMarkdown(cases)
                + ScalingReport.Markdown(cases)
                + RouteAmountReport.Markdown(cases)
                + SetupReport.Markdown(cases)
        );
        AtomicFile.WriteAllLines(Path.Combine(directory, ComparisonsCsv), ComparisonRows(comparisons));
        AtomicFile.WriteAllLines(Path.Combine(directory, TopologiesCsv), TopologyRows(cases));
    }

    public static string Markdown(RunComparisons run)
    {
        var text = new StringBuilder();
        if (run.Comparisons.Count > 0)
        {
            text.AppendLine(
                run.Budget is null
                    ? $"## Comparisons: fresh topologies as the unit, 95 % intervals, threshold ±{Thresholds(run)}"
                    : $"## Comparisons: fresh topologies as the unit, 95 % confidence sequences (budgeted run), threshold ±{Thresholds(run)}"
            );
            text.AppendLine();
            text.AppendLine(
                "| case | metric | baseline | candidate | baseline mean | candidate mean | ratio | 95 % interval | topologies | p | verdict | detects ≥ |"
            );
            text.AppendLine("|---|---|---|---|---:|---:|---:|---|---:|---:|---|---:|");
            foreach (var c in run.Comparisons)
            {
                var interval = c.Interval.HasInterval
                    ? $"{F(c.Interval.Low, "0.000")} – {F(c.Interval.High, "0.000")}"
                    : "-";
                var topologies = c.Interval.Paired
                    ? $"{c.Interval.BaselineTopologies} pairs"
                    : $"{c.Interval.BaselineTopologies} + {c.Interval.CandidateTopologies}";
                text.AppendLine(
                    $"| {c.Cell} | {c.Metric} | {c.Baseline} | {c.Candidate} | {Value(c.BaselineMean, c.Unit)} | {Value(c.CandidateMean, c.Unit)} | {F(c.Interval.Ratio, "0.000")} | {interval} | {topologies} | {F(c.Interval.PValue, "0.###")} | {c.Verdict} | {Percent(c.Precision?.DetectablePercent)} |"
                );
            }
            text.AppendLine();
            if (run.Comparisons.Any(c => ComparisonMetric.NamesInstructions(c.Metric)))
            {
                text.AppendLine(
                    "Instructions per payment: every Lightning node ran under Valgrind (callgrind), which runs code about ten times "
                        + "slower, so this run's times (BenchmarkDotNet's table, payments.csv, spans) describe nodes under Valgrind and are not compared."
                );
                text.AppendLine();
            }
            text.AppendLine(
                $"`same`: the whole interval lies within ±{Thresholds(run)}; `slower`/`faster`: it lies wholly beyond; "
                    + $"`unknown: needs more topologies`: it straddles the threshold ({(run.Budget is null ? "add --topologies, or let --max-time add them" : "a longer --max-time adds them")}). With "
                    + $"{run.Comparisons.Count(c => c.Interval.HasInterval)} intervals at 95 %, about {F(run.ExpectedByChance, "0.#")} of them may miss the true "
                    + "ratio by chance: when nothing changed, fewer than that say slower or faster. `detects ≥`: the smallest change "
                    + $"that intervals this wide call slower {F(ComparisonPrecision.Power * 100, "0")} % of the time."
            );
            text.AppendLine();
            if (run.Budget is { } budget)
            {
                text.Append(BudgetMarkdown(budget));
            }
            var precise = run.Comparisons.Where(c => c.Precision is not null).ToList();
            if (precise.Count > 0)
            {
                text.AppendLine("## Precision: more iterations or more topologies?");
                text.AppendLine();
                text.AppendLine(
                    "| case | metric | candidate | pairs' SD % | from iteration noise | iterations | narrowest per minute at |"
                );
                text.AppendLine("|---|---|---|---:|---:|---:|---:|");
                foreach (var c in precise)
                {
                    var p = c.Precision!;
                    text.AppendLine(
                        $"| {c.Cell} | {c.Metric} | {c.Candidate} | {F(p.PairSdPercent, "0.0")} | {F(p.IterationNoiseShare * 100, "0")} % | {p.Iterations} | {(p.SuggestedIterations is { } n ? n.ToString(CultureInfo.InvariantCulture) : "-")} |"
                    );
                }
                text.AppendLine();
                text.AppendLine(
                    "A pair's ratio varies with iteration noise (more `--iterations` average it away) and with the topologies and the "
                        + "machine between them (only more `--topologies` do). The last column weighs both against what a topology and an "
                        + "iteration cost in this run (Kalibera and Jones): the iterations per topology that narrow the interval most per minute."
                );
                text.AppendLine();
            }
        }
        if (run.Spreads.Count > 0)
        {
            text.AppendLine("## Spread between topologies and within them");
            text.AppendLine();
            text.AppendLine(
                "| case | arm | metric | topologies | mean | between topologies (SD %) | within a topology (SD %) |"
            );
            text.AppendLine("|---|---|---|---:|---:|---:|---:|");
            foreach (var s in run.Spreads)
            {
                text.AppendLine(
                    $"| {s.Cell} | {s.Arm} | {s.Metric} | {s.Topologies} | {F(s.Mean, "0.0")} | {F(s.BetweenPercent, "0.0")} | {F(s.WithinPercent, "0.0")} |"
                );
            }
        }
        return text.ToString();
    }

    /// <summary>What a budgeted run bought: its rounds, why it stopped, and each primary verdict with the pairs it took or would need.</summary>
    public static string BudgetMarkdown(BudgetReport budget)
    {
        var text = new StringBuilder();
        var spent = budget.Rounds.Count > 0 ? budget.Rounds[^1].ElapsedSeconds / 60 : 0;
        var pairs = budget.Rounds.Count > 0 ? budget.Rounds[^1].Pairs : 0;
        var stoppedCells = CellsStopped(budget.Rounds, budget.Verdicts);
        var uneven =
            stoppedCells is not null
            || (budget.Rounds.Count > 0 && budget.Rounds[^1].Spent.Select(c => c.Pairs).Distinct().Count() > 1);
        text.AppendLine(
            $"## Budget: {(uneven ? "up to " : "")}{pairs} pairs per case in {F(spent, "0.#")} of {F(budget.BudgetSeconds / 60, "0.#")} min, {budget.Rounds.Count} round(s); stopped by {budget.StoppedBecause}"
        );
        text.AppendLine();
        text.AppendLine(
            "| case | metric | candidate | verdict | pairs | would need (pairs in all) | about (min more) |"
        );
        text.AppendLine("|---|---|---|---|---:|---:|---:|");
        foreach (var v in budget.Verdicts)
        {
            var open = v.Verdict == Verdict.Unknown;
            text.AppendLine(
                $"| {v.Cell} | {v.Metric} | {v.Candidate} | {v.Verdict} | {v.Pairs} | {(open ? v.PairsNeeded?.ToString(CultureInfo.InvariantCulture) ?? "not in sight" : "-")} | {(open && v.MinutesNeeded is { } m ? F(m, "0.#") : "-")} |"
            );
        }
        text.AppendLine();
        if (budget.Rounds.Count > 0 && budget.Rounds[^1].Spent.Count > 0)
        {
            text.AppendLine(
                $"What each case took: {string.Join("; ", budget.Rounds[^1].Spent.Select(c => $"{c.Cell}: {c.Pairs} pairs, {F(c.Seconds / 60, "0.#")} min ({F(c.SecondsPerPair, "0")} s a pair)"))}."
            );
            text.AppendLine();
        }
        if (stoppedCells is not null)
        {
            text.AppendLine($"Cases whose verdicts were decided got no more pairs: {stoppedCells}.");
            text.AppendLine();
        }
        text.AppendLine(
            $"After the first round, each round added one topology pair to the cases whose verdicts were still open and whose turn it was: the open cases share "
                + "the time, not the pairs (a case whose pairs cost three times another's gets a pair every third round of the other's), in the same balanced, seeded order. "
                + $"The run stopped when every build's mean time and payments/s verdict was decided or no open case's next pair would end within the budget. The intervals are "
                + $"{BudgetReport.Method}: they stay 95 % intervals however often they are looked at, and are wider than a fixed run's t-interval "
                + "of as many pairs (about 1.8 times at 10–40 pairs). An open verdict's need assumes its ratio and the pairs' spread stay as they are."
        );
        text.AppendLine();
        if (IterationsByRound(budget.Rounds) is { } iterations)
        {
            text.AppendLine(
                $"Measured invocations per topology: {iterations}. After each round the next ones measure, per Concurrency, the "
                    + "iterations that narrow the mean-time interval most per minute for this run's variance components (the precision table's last "
                    + "column, median over cases and builds, 10 to 100); `--iterations` fixes them."
            );
            text.AppendLine();
        }
        return text.ToString();
    }

    /// <summary>"Concurrency=10 after round 3 (3 pairs)": each cell whose primary verdicts were all decided before the last round, or null when none was.</summary>
    internal static string? CellsStopped(IReadOnlyList<BudgetRound> rounds, IReadOnlyList<BudgetVerdict> verdicts)
    {
        if (rounds.Count < 2 || rounds[0].Cells.Count == 0)
        {
            return null;
        }
        var decided = verdicts
            .GroupBy(v => v.Cell)
            .Where(g => g.All(v => v.Verdict != Verdict.Unknown))
            .Select(g => g.Key)
            .ToHashSet(StringComparer.Ordinal);
        var stopped = rounds[0]
            .Cells.Where(cell => decided.Contains(cell) && !rounds[^1].Cells.Contains(cell))
            .Select(cell =>
            {
                var last = rounds.Last(r => r.Cells.Contains(cell));
                return $"{cell} after round {last.Round} ({last.PairsOf(cell)} pairs)";
            })
            .ToList();
        return stopped.Count == 0 ? null : string.Join("; ", stopped);
    }

    /// <summary>"Concurrency=1: 10 (round 1), 40 (rounds 2–9); Concurrency=10: 10 (rounds 1–9)", or null without the counts.</summary>
    internal static string? IterationsByRound(IReadOnlyList<BudgetRound> rounds)
    {
        if (rounds.Count == 0 || rounds.Any(r => r.Iterations is null))
        {
            return null;
        }
        var parts = rounds
            .SelectMany(r => r.Iterations!.Keys)
            .Distinct()
            .Order()
            .Select(concurrency =>
            {
                var runs = new List<(int First, int Last, int Count)>();
                foreach (var round in rounds)
                {
                    var count = round.Iterations!.TryGetValue(concurrency, out var n) ? n : 0;
                    if (runs.Count > 0 && runs[^1].Count == count)
                    {
                        runs[^1] = runs[^1] with { Last = round.Round };
                    }
                    else
                    {
                        runs.Add((round.Round, round.Round, count));
                    }
                }
                return $"Concurrency={concurrency}: "
                    + string.Join(
                        ", ",
                        runs.Select(r =>
                            $"{r.Count} ({(r.First == r.Last ? $"round {r.First}" : $"rounds {r.First}–{r.Last}")})"
                        )
                    );
            });
        return string.Join("; ", parts);
    }

    internal static IEnumerable<string> ComparisonRows(RunComparisons run) =>
        new[]
        {
            "kind,case,metric,unit,baseline,candidate,baseline_mean,candidate_mean,ratio,low,high,paired,baseline_topologies,candidate_topologies,p,bootstrap_low,bootstrap_high,verdict,threshold_percent,pair_sd_percent,iteration_noise_share,iterations,suggested_iterations,detectable_percent",
        }.Concat(
            run.Comparisons.Select(c =>
                string.Join(
                    ',',
                    c.Kind,
                    PaymentCsv.Field(c.Cell),
                    PaymentCsv.Field(c.Metric),
                    c.Unit,
                    PaymentCsv.Field(c.Baseline),
                    PaymentCsv.Field(c.Candidate),
                    F(c.BaselineMean, "0.####"),
                    F(c.CandidateMean, "0.####"),
                    F(c.Interval.Ratio, "0.#####"),
                    F(c.Interval.Low, "0.#####"),
                    F(c.Interval.High, "0.#####"),
                    c.Interval.Paired ? "true" : "false",
                    c.Interval.BaselineTopologies,
                    c.Interval.CandidateTopologies,
                    F(c.Interval.PValue, "0.#####"),
                    F(c.Interval.BootstrapLow, "0.#####"),
                    F(c.Interval.BootstrapHigh, "0.#####"),
                    PaymentCsv.Field(c.Verdict),
                    F(c.ThresholdPercent ?? run.ThresholdPercent, "0.##"),
                    F(c.Precision?.PairSdPercent ?? double.NaN, "0.###"),
                    F(c.Precision?.IterationNoiseShare ?? double.NaN, "0.###"),
                    c.Precision?.Iterations.ToString(CultureInfo.InvariantCulture) ?? "-",
                    c.Precision?.SuggestedIterations?.ToString(CultureInfo.InvariantCulture) ?? "-",
                    F(c.Precision?.DetectablePercent ?? double.NaN, "0.##")
                )
            )
        );

    private static IEnumerable<string> TopologyRows(IReadOnlyList<CaseResults> cases) =>
        new[] { "case,cell,build,traces,topology,metric,unit,mean,sd,iterations,ready_s,host" }.Concat(
            cases
                .Where(c => c.Figures is { IterationsMs.Count: > 0 })
                .SelectMany(c =>
                    ComparisonMetric
                        .For([TopologySample.Of(c)])
                        .Where(m => m.IterationValues(TopologySample.Of(c)).Count > 0)
                        .Select(m =>
                        {
                            var values = m.IterationValues(TopologySample.Of(c));
                            var mean = values.Average();
                            var sd = SampleVariance.StandardDeviation(values);
                            var (build, traces) = c.Id.Arm;
                            return string.Join(
                                ',',
                                PaymentCsv.Field(c.CaseKey),
                                PaymentCsv.Field(c.Id.Cell.Label),
                                PaymentCsv.Field(build),
                                traces,
                                c.Id.Topology,
                                PaymentCsv.Field(m.Name),
                                m.Unit,
                                F(mean, "0.####"),
                                F(sd, "0.####"),
                                values.Count,
                                F(c.Topology?.Setup?.ReadySeconds ?? double.NaN, "0.###"),
                                PaymentCsv.Field(c.Topology?.Host ?? "")
                            );
                        })
                )
        );

    /// <summary>"2 %", or "2 % (timed metrics), 0.5 % (instructions)" when the metrics have their own.</summary>
    private static string Thresholds(RunComparisons run)
    {
        var distinct = run
            .Comparisons.GroupBy(c => c.ThresholdPercent ?? run.ThresholdPercent)
            .Select(g => (Percent: g.Key, Instructions: g.All(c => ComparisonMetric.NamesInstructions(c.Metric))))
            .ToList();
        return distinct.Count <= 1
            ? $"{F(distinct.Select(d => d.Percent).DefaultIfEmpty(run.ThresholdPercent).First(), "0.##")} %"
            : string.Join(
                ", ",
                distinct.Select(d =>
                    $"{F(d.Percent, "0.##")} % ({(d.Instructions ? "instructions" : "timed metrics")})"
                )
            );
    }

    private static string Percent(double? value) =>
        value is { } v && !double.IsNaN(v) ? $"{F(v, v < 5 ? "0.##" : "0.#")} %" : "-";

    /// <summary>Millions of instructions with three decimals (a 0.1 % change shows), other figures with one.</summary>
    private static string Value(double value, string unit) =>
        unit.Length == 0
            ? F(value, "0.0")
            : $"{F(value, unit == ComparisonMetric.InstructionsUnit ? "0.000" : "0.0")} {unit}";

    private static string F(double value, string format) =>
        !double.IsFinite(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
