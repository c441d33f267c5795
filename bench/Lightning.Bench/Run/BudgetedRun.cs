using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Cases;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Run;

/// <summary>
/// --max-time: rounds of BenchmarkDotNet over the same cases, the first with --topologies pairs of every case and
/// each next with one more pair of the cases whose primary verdicts (each build's mean time and payments/s against
/// the baseline) are still open and whose turn it is by time spent (<see cref="BudgetedVerdicts.NextCells"/>), until
/// every primary verdict is decided on its confidence sequence or no open case's next pair ends within the budget.
/// </summary>
internal sealed class BudgetedRun(RunContext run, BenchmarkOutput output, RunShutdown shutdown, TimeSpan budget)
{
    private readonly List<BudgetRound> rounds = [];
    private readonly List<Summary> summaries = [];
    private readonly Dictionary<string, int> firstDecided = [];

    // Each cell's last topology index so far (its pairs are 1…that).
    private readonly Dictionary<string, int> lastTopology = new(StringComparer.Ordinal);
    private readonly IReadOnlyList<string> builds = run.Options.Builds.Select(b => b.Name).ToList();
    private (int Failed, int Declared, bool Critical) outcome;
    private RunComparisons? comparisons;
    private IReadOnlyList<CellSpend> spent = [];

    // The cases (a cell: a Concurrency, and a scenario's own parameters) the next round measures, each at its next
    // topology index: every one in the first round (null), then open ones by their share of the time. A decided
    // cell gets no more pairs (its confidence sequence stays valid wherever it stops).
    private IReadOnlyDictionary<string, int>? next;

    /// <summary>The rounds, then the comparisons and their tables; non-zero when a case failed or BenchmarkDotNet refused the run.</summary>
    public int Run()
    {
        string stopped;
        using (BenchmarkHost.Host(run))
        {
            while (true)
            {
                if (StopReason(MeasureRound()) is { } why)
                {
                    stopped = why;
                    break;
                }
            }
        }
        return Finish(stopped);
    }

    /// <summary>
    /// The budget counts from the run's start (image checks and the chain's seeding included); the reports written
    /// after the last round are not in it.
    /// </summary>
    private double Elapsed() => (DateTimeOffset.UtcNow - run.Started).TotalSeconds;

    private RunComparisons Compare() =>
        ArmComparer.Of(
            run.Results,
            builds,
            run.Options.Traces,
            run.Options.ThresholdPercent,
            run.Plan.Seed,
            run.Options.InstructionsThresholdPercent,
            sequential: true
        );

    /// <summary>One round of BenchmarkDotNet over the cells of <see cref="next"/>, then its verdicts; returns what it cost besides its topologies.</summary>
    private double MeasureRound()
    {
        var options = run.Options;
        run.TopologyRange = next is null ? (1, options.Topologies) : (next.Values.Min(), next.Values.Max());
        var roundStarted = Elapsed();
        var spentBefore = spent.Sum(c => c.Seconds);
        run.Progress.Info(
            next is null
                ? $"budgeted run (--max-time {budget.TotalMinutes:0.#} min): round 1, topologies 1–{options.Topologies} of every case"
                : $"round {rounds.Count + 1}: {string.Join("; ", next.OrderBy(n => n.Key, StringComparer.Ordinal).Select(n => $"topology {n.Value} of {n.Key}"))} "
                    + $"({Elapsed() / 60:0.#} of {budget.TotalMinutes:0.#} min spent)"
        );
        var iterations = run.Sweep("Concurrency").ToDictionary(c => c, run.MeasuredFor);
        // The round's last group of alternating arms ends behind the next round's setup (its idle windows and
        // teardowns); its figures are taken without the idle rate, which only CPU per payment needs.
        run.RoundsMayFollow = true;
        RunRound();
        comparisons = Compare();
        var allCells = comparisons.Comparisons.Select(c => c.Cell).Distinct().Order(StringComparer.Ordinal).ToList();
        foreach (var cell in allCells)
        {
            // The first round's: 1…--topologies.
            lastTopology.TryAdd(cell, options.Topologies);
        }
        spent = BudgetedVerdicts.Spend(run.Results.Cases, allCells, DateTimeOffset.UtcNow);
        foreach (
            var decided in comparisons.Comparisons.Where(c =>
                BudgetedVerdicts.Decides(c, run.Options.DecideOn) && c.Verdict != Verdict.Unknown
            )
        )
        {
            firstDecided.TryAdd(BudgetedVerdicts.Key(decided), decided.Interval.BaselineTopologies);
        }
        rounds.Add(
            new BudgetRound(
                rounds.Count + 1,
                spent.Select(c => c.Pairs).DefaultIfEmpty(0).Max(),
                Elapsed(),
                BudgetedVerdicts.Open(comparisons, run.Options.DecideOn).Count,
                iterations
            )
            {
                Cells = next?.Keys.Order(StringComparer.Ordinal).ToList() ?? allCells,
                Spent = spent,
            }
        );
        // What a round costs besides its topologies (BenchmarkDotNet's own work, the comparisons): the next round's too.
        return Math.Max(0, Elapsed() - roundStarted - (spent.Sum(c => c.Seconds) - spentBefore));
    }

    /// <summary>BenchmarkDotNet over the round's cells; what failed counted, each cell's last topology kept.</summary>
    private void RunRound()
    {
        var options = run.Options;
        var summary = BenchmarkRunner.Run(
            run.Scenario.BenchmarkType,
            BenchConfig.Create(
                options,
                run.Kinds,
                run.ResultsDirectory,
                run.Results,
                run.Plan,
                output,
                run.IterationsByConcurrency,
                run.Alternating ? run.Arms : 1,
                next,
                run.Progress.Model
            ),
            options.BenchmarkDotNetArguments.ToArray()
        );
        summaries.Add(summary);
        run.Progress.Model.SetActivity($"round {rounds.Count + 1} done: judging the verdicts");
        // Its last case failed before its cleanup: its arms end now.
        run.LiveGroup?.EndAllAsync(wait: true).GetAwaiter().GetResult();
        foreach (var (cell, topology) in next ?? new Dictionary<string, int>())
        {
            lastTopology[cell] = topology;
        }
        outcome = (
            outcome.Failed + summary.Reports.Count(r => !r.Success),
            outcome.Declared + summary.BenchmarksCases.Length,
            outcome.Critical || summary.HasCriticalValidationErrors || summary.Reports.Length == 0
        );
    }

    /// <summary>Why the rounds stop after this one, or null with the next round chosen.</summary>
    private string? StopReason(double overhead)
    {
        var decideOn = run.Options.DecideOn;
        var open = BudgetedVerdicts.Open(comparisons!, decideOn);
        if (outcome.Failed + run.EndsFailed > 0 || outcome.Critical)
        {
            return "a case failed";
        }
        if (run.Cancellation.IsCancellationRequested)
        {
            return "interrupted";
        }
        if (BudgetedVerdicts.Settled(comparisons!, decideOn) is { } settled)
        {
            return settled;
        }
        var openCells = open.Select(c => c.Cell).ToHashSet(StringComparer.Ordinal);
        var openSpend = spent.Where(c => openCells.Contains(c.Cell) && c.Pairs > 0).ToList();
        var chosen = BudgetedVerdicts.NextCells(openSpend, Elapsed(), budget.TotalSeconds, overhead);
        if (chosen.Count == 0)
        {
            var cheapest = openSpend.Select(c => c.SecondsPerPair).DefaultIfEmpty(0).Min();
            return $"the budget: another pair of an open case (about {cheapest / 60:0.#} min) would end after {budget.TotalMinutes:0.#} min";
        }
        run.Progress.Info(
            $"after round {rounds.Count} ({string.Join("; ", spent.Select(c => $"{c.Cell}: {c.Pairs} pairs, {c.Seconds / 60:0.#} min"))}): "
                + $"{open.Count} verdict(s) open ({string.Join("; ", open.Select(c => $"{c.Cell} {c.Metric} {c.Candidate} {c.Interval.Ratio:0.000}"))})"
        );
        next = chosen.ToDictionary(cell => cell, cell => lastTopology[cell] + 1, StringComparer.Ordinal);
        PlanIterations();
        return null;
    }

    /// <summary>The next round's iterations per Concurrency from this run's own variance components (<see cref="IterationPlan"/>), unless --iterations fixed them.</summary>
    private void PlanIterations()
    {
        if (run.Options.IterationsGiven)
        {
            return;
        }
        var before = run.IterationsByConcurrency;
        run.IterationsByConcurrency = IterationPlan.Next(comparisons!.Comparisons, before, run.Options.Iterations);
        var changed = run
            .IterationsByConcurrency.Where(i =>
                (before.TryGetValue(i.Key, out var had) ? had : run.Options.Iterations) != i.Value
            )
            .ToList();
        if (changed.Count > 0)
        {
            run.Progress.Info(
                $"next rounds measure {string.Join(", ", changed.OrderBy(c => c.Key).Select(c => $"{c.Value} iterations per topology at Concurrency={c.Key}"))} "
                    + "(the most precision per minute for this run's variance; --iterations fixes it)"
            );
        }
    }

    /// <summary>The last round's group ends; the comparisons again, with CPU per payment (the primary verdicts read the same times), and the budget's report.</summary>
    private int Finish(string stopped)
    {
        run.RoundsMayFollow = false;
        run.Progress.Model.SetActivity("ending the last topologies");
        run.EndLiveGroupAsync().GetAwaiter().GetResult();
        RunTables.EndDisplay(run, summaries);
        if (comparisons is not null)
        {
            comparisons = Compare();
            spent = BudgetedVerdicts.Spend(
                run.Results.Cases,
                spent.Select(c => c.Cell).ToList(),
                DateTimeOffset.UtcNow
            );
            if (rounds.Count > 0)
            {
                rounds[^1] = rounds[^1] with { Spent = spent };
            }
        }
        shutdown.Completed = true;
        var pace = spent.ToDictionary(c => c.Cell, c => c.SecondsPerPair, StringComparer.Ordinal);
        run.Results.Comparisons = comparisons! with
        {
            Budget = new BudgetReport(
                budget.TotalSeconds,
                rounds,
                stopped,
                BudgetedVerdicts.Summarise(comparisons, firstDecided, cell => pace.GetValueOrDefault(cell))
            ),
        };
        return RunTables.Print(run, outcome.Failed + run.EndsFailed, outcome.Declared, outcome.Critical);
    }
}
