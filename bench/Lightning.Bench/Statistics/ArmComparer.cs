using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Statistics;

/// <summary>
/// Makes a run's comparisons (<see cref="RunComparisons"/>) from its results model or its summary: each build against
/// the first build (same trace mode), each trace mode against Traces=off (same build), in every cell, on every metric,
/// with topologies as the unit.
/// </summary>
internal static class ArmComparer
{
    /// <param name="thresholdPercent">The timed metrics' threshold; <paramref name="instructionsThresholdPercent"/> that of instructions per payment.</param>
    /// <param name="sequential">A budgeted run: paired intervals are confidence sequences (<see cref="ConfidenceSequence"/>).</param>
    public static RunComparisons Of(
        RunResults results,
        IReadOnlyList<string> builds,
        IReadOnlyList<string> traceModes,
        double thresholdPercent,
        int seed,
        double instructionsThresholdPercent = ComparisonMetric.InstructionsThresholdPercent,
        bool sequential = false
    ) =>
        Of(
            results
                .Cases.Where(c => c.Figures is { IterationsMs.Count: > 0 })
                .Select(c => new Topology(c.Parameters, TopologySample.Of(c), c))
                .ToList(),
            builds,
            traceModes,
            thresholdPercent,
            seed,
            instructionsThresholdPercent,
            sequential
        );

    /// <summary>
    /// The same comparisons from the topologies' figures as summary.json keeps them (the side-by-side shares of a run,
    /// each measured by its own process): paired by topology index within each cell, without the precision figures
    /// (those need each topology's timeline).
    /// </summary>
    public static RunComparisons Of(
        IReadOnlyList<CaseSummary> cases,
        IReadOnlyList<string> builds,
        IReadOnlyList<string> traceModes,
        double thresholdPercent,
        int seed,
        double instructionsThresholdPercent = ComparisonMetric.InstructionsThresholdPercent
    ) =>
        Of(
            cases
                .Where(c => c.IterationsMs.Count > 0)
                .Select(c => new Topology(c.Parameters, TopologySample.Of(c), null))
                .ToList(),
            builds,
            traceModes,
            thresholdPercent,
            seed,
            instructionsThresholdPercent,
            sequential: false
        );

    /// <summary>A topology as the comparisons see it: its case's parameters, its figures, and its results when measured in this process.</summary>
    private sealed record Topology(
        IReadOnlyDictionary<string, string> Parameters,
        TopologySample Sample,
        CaseResults? Results
    )
    {
        public CaseId Id => field ??= CaseId.Of(Parameters);
    }

    private static RunComparisons Of(
        List<Topology> cases,
        IReadOnlyList<string> builds,
        IReadOnlyList<string> traceModes,
        double thresholdPercent,
        int seed,
        double instructionsThresholdPercent,
        bool sequential
    )
    {
        var cells = cases.GroupBy(c => c.Id.Cell).ToList();
        var comparisons = new List<ArmComparison>();
        var spreads = new List<ArmSpread>();
        foreach (var cell in cells)
        {
            // Arms in command-line order (builds, then trace modes), each arm's topologies in index order.
            var arms = cell.GroupBy(c => c.Id.Arm)
                .OrderBy(g => Index(builds, g.Key.Build))
                .ThenBy(g => Index(traceModes, g.Key.Traces))
                .ToDictionary(g => g.Key, g => g.OrderBy(c => c.Id.Topology).ToList());
            var metrics = ComparisonMetric.For(cell.Select(c => c.Sample).ToList());
            var liveArms = cell.Any(c => c.Results is { TimedByHarness: true }) ? arms.Count : 1;
            // A metric every arm has in some topology: a topology without it (mean time where no operation ended as
            // expected, CPU per operation with none) is left out of that metric's comparisons, with its pair.
            foreach (
                var metric in metrics.Where(m =>
                    arms.Values.All(topologies => topologies.Any(c => m.IterationValues(c.Sample).Count > 0))
                )
            )
            {
                var threshold = metric.IsInstructions
                    ? instructionsThresholdPercent
                    : metric.ThresholdPercent ?? thresholdPercent;
                foreach (var (arm, topologies) in arms)
                {
                    spreads.Add(Spread(cell.Key.Label, Label(arm, traceModes), metric, topologies));
                }
                foreach (var (arm, topologies) in arms)
                {
                    if (arm.Build != builds[0] && arms.TryGetValue((builds[0], arm.Traces), out var baseline))
                    {
                        comparisons.Add(
                            Compare(
                                "build",
                                cell.Key,
                                metric,
                                (builds[0], arm.Traces),
                                baseline,
                                arm,
                                topologies,
                                traceModes,
                                threshold,
                                seed,
                                sequential,
                                liveArms
                            )
                        );
                    }
                    if (arm.Traces != TraceModes.Off && arms.TryGetValue((arm.Build, TraceModes.Off), out var off))
                    {
                        comparisons.Add(
                            Compare(
                                "traces",
                                cell.Key,
                                metric,
                                (arm.Build, TraceModes.Off),
                                off,
                                arm,
                                topologies,
                                traceModes,
                                threshold,
                                seed,
                                sequential,
                                liveArms
                            )
                        );
                    }
                }
            }
        }
        return new RunComparisons(comparisons, spreads, thresholdPercent);
    }

    private static ArmComparison Compare(
        string kind,
        CellId cell,
        ComparisonMetric metric,
        (string Build, string Traces) baselineArm,
        List<Topology> baseline,
        (string Build, string Traces) candidateArm,
        List<Topology> candidate,
        IReadOnlyList<string> traceModes,
        double thresholdPercent,
        int seed,
        bool sequential,
        int liveArms
    )
    {
        // Pairs: the same Topology index of both arms, started next to each other in the interleaved order.
        baseline = baseline.Where(c => Values(metric, c).Count > 0).ToList();
        candidate = candidate.Where(c => Values(metric, c).Count > 0).ToList();
        var paired = baseline
            .Select(b => (Replicate: b.Id.Topology, Case: b))
            .Join(candidate, b => b.Replicate, c => c.Id.Topology, (b, c) => (Baseline: b.Case, Candidate: c))
            .ToList();
        var usePairs = paired.Count >= 2;
        var baseValues = (usePairs ? paired.Select(p => p.Baseline) : baseline).Select(c => Values(metric, c)).ToList();
        var candValues = (usePairs ? paired.Select(p => p.Candidate) : candidate)
            .Select(c => Values(metric, c))
            .ToList();
        var interval = TopologyComparison.Compare(baseValues, candValues, usePairs, seed, sequential && usePairs);
        return new ArmComparison(
            kind,
            cell.Label,
            metric.Name,
            metric.Unit,
            Label(baselineArm, traceModes),
            Label(candidateArm, traceModes),
            baseline.Select(c => Values(metric, c).Average()).Average(),
            candidate.Select(c => Values(metric, c).Average()).Average(),
            interval,
            Verdict.Of(interval, thresholdPercent, metric.HigherIsWorse),
            usePairs && paired.All(p => p.Baseline.Results is not null && p.Candidate.Results is not null)
                ? Precision(
                    paired.SelectMany(p => new[] { p.Baseline.Results!, p.Candidate.Results! }).ToList(),
                    baseValues,
                    candValues,
                    thresholdPercent,
                    sequential,
                    liveArms
                )
                : null
        )
        {
            ThresholdPercent = thresholdPercent,
            CellId = cell,
        };
    }

    /// <summary>The pairs' spread, how much of it iteration noise explains, and the iterations per topology that would narrow it most per minute.</summary>
    /// <param name="liveArms">The arms live at once in a pair (alternating arms), else 1.</param>
    private static ComparisonPrecision? Precision(
        List<CaseResults> topologies,
        List<IReadOnlyList<double>> baseValues,
        List<IReadOnlyList<double>> candValues,
        double thresholdPercent,
        bool sequential,
        int liveArms
    )
    {
        var all = baseValues.Concat(candValues).ToList();
        if (all.Any(v => v.Count == 0 || v.Average() <= 0))
        {
            // An arm that measured 0 (its operations all failed): no log ratios, so no spread to estimate.
            return null;
        }
        var logRatios = candValues.Zip(baseValues, (c, b) => Math.Log(c.Average() / b.Average())).ToList();
        if (all.All(v => v.Count == 1))
        {
            // One figure per topology (instructions over its whole window): no iteration noise to split off.
            return PrecisionEstimate.Of(logRatios, 0, 1, double.NaN, double.NaN, thresholdPercent, sequential);
        }
        if (all.Any(v => v.Count < 2))
        {
            return null;
        }
        // Alternating arms: the noise of the invocations' turns, not of each arm alone (the moment they share is not noise in the ratio).
        var within =
            (liveArms > 1 ? PrecisionEstimate.PairedWithinVariance(baseValues, candValues) : null)
            ?? all.Average(v => SampleVariance.Of(v) / (v.Average() * v.Average()));
        var iterations = (int)Math.Round(all.Average(v => v.Count));
        // An iteration costs its invocation and the wait for quiet nodes before it; a topology's own cost is its whole
        // time less that of its iterations (warmups included).
        double IterationSeconds(CaseResults c) =>
            c.Figures!.IterationsMs.Average() / 1000
            + (c.InvocationSettleWaits.Count > 0 ? c.InvocationSettleWaits.Average(w => w.Waited.TotalSeconds) : 0);
        var iterationSeconds = topologies.Average(IterationSeconds);
        // With alternating arms a topology is up while the other arms of its pair pay too: their invocations are theirs.
        var topologySeconds = topologies
            .Where(c => c.Topology is { Ended: not null })
            .Select(c =>
                (c.Topology!.Ended!.Value - c.Topology.Started).TotalSeconds
                - liveArms * c.InvocationsStarted * IterationSeconds(c)
            )
            .DefaultIfEmpty(double.NaN)
            .Average();
        return PrecisionEstimate.Of(
            logRatios,
            within,
            iterations,
            topologySeconds,
            iterationSeconds,
            thresholdPercent,
            sequential
        );
    }

    private static ArmSpread Spread(string cell, string arm, ComparisonMetric metric, List<Topology> topologies)
    {
        var values = topologies.Select(c => Values(metric, c)).Where(v => v.Count > 0).ToList();
        var means = values.Select(v => v.Average()).ToList();
        var mean = means.Average();
        var between = SampleVariance.StandardDeviation(means) / mean * 100;
        var within = values
            .Where(v => v.Count >= 2)
            .Select(v => SampleVariance.StandardDeviation(v) / v.Average() * 100)
            .DefaultIfEmpty(double.NaN)
            .Average();
        return new ArmSpread(cell, arm, metric.Name, values.Count, mean, between, within);
    }

    /// <summary>The position of <paramref name="value"/> in <paramref name="values"/>, or past the end when absent.</summary>
    private static int Index(IReadOnlyList<string> values, string value) => values.TakeWhile(v => v != value).Count();

    private static IReadOnlyList<double> Values(ComparisonMetric metric, Topology c) =>
        metric.IterationValues(c.Sample);

    /// <summary>"O2" or, when the run has several trace modes, "O2, traces off".</summary>
    private static string Label((string Build, string Traces) arm, IReadOnlyList<string> traceModes) =>
        traceModes.Count > 1 ? $"{arm.Build}, traces {arm.Traces}" : arm.Build;
}
