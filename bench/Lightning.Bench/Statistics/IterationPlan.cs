using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>
/// How many measured invocations a budgeted run gives each topology, per Concurrency, from its own variance components:
/// after every round, the iterations that narrow the mean-time interval most per minute (Kalibera and Jones, from the
/// pairs' spread, the iteration noise and what a topology and an iteration cost in this run; see
/// <see cref="ComparisonPrecision"/>), the median over the cases and builds of that Concurrency.
/// </summary>
/// <remarks>
/// At Concurrency=1 an iteration is one payment (about 45 ms) and a topology costs about 5 s besides, and iteration noise
/// made 70–80 % of an A/A pair's variance at 10 iterations: the rule asks for 25–75 there, and about 20 at Concurrency=10.
/// Choosing the next rounds' iterations from the variance seen so far (not from the ratio) is an internal pilot
/// (Wittes and Brittain, 1990): it leaves the pairs' expected log ratio alone (both arms of a pair measure as many
/// iterations), so the confidence sequence stays what it is; the synthetic check is in the tests.
/// </remarks>
internal static class IterationPlan
{
    /// <summary>At most this many measured invocations per topology (at Concurrency=1 about 4.5 s, a topology's own cost).</summary>
    public const int Max = 100;

    /// <summary>Counts are rounded to a multiple of this: a few iterations more or less change nothing measurable.</summary>
    public const int Step = 5;

    /// <summary>
    /// The next round's iterations per Concurrency: the median suggestion of the cases at that Concurrency, rounded to
    /// <see cref="Step"/>, never below <paramref name="floor"/> (the run's --iterations) nor above <see cref="Max"/>;
    /// a Concurrency without a suggestion keeps what it had.
    /// </summary>
    public static IReadOnlyDictionary<int, int> Next(
        IEnumerable<ArmComparison> comparisons,
        IReadOnlyDictionary<int, int> current,
        int floor
    )
    {
        var next = new Dictionary<int, int>(current);
        var suggested = comparisons
            .Where(c =>
                c.Kind == "build"
                && c.Metric == ComparisonMetric.MeanTime.Name
                && c.Precision?.SuggestedIterations is not null
            )
            .Select(c => (Concurrency: c.CellId?.Concurrency, Iterations: c.Precision!.SuggestedIterations!.Value))
            .Where(s => s.Concurrency is not null)
            .GroupBy(s => s.Concurrency!.Value);
        foreach (var group in suggested)
        {
            var sorted = group.Select(s => (double)s.Iterations).Order().ToList();
            var median =
                sorted.Count % 2 == 1
                    ? sorted[sorted.Count / 2]
                    : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
            next[group.Key] = Math.Clamp((int)Math.Round(median / Step) * Step, floor, Math.Max(floor, Max));
        }
        return next;
    }
}
