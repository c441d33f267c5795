using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Tests;

/// <summary>
/// The precision figures are checked on synthetic pairs with known variance components: the share iteration noise
/// explains, the iterations that narrow the interval most per minute, and a detectable change that is detected 80 % of the time.
/// </summary>
[Trait("Category", "Unit")]
public class ComparisonPrecisionTests
{
    [Fact]
    public void The_detectable_change_is_the_threshold_plus_t_quantiles_of_the_standard_error()
    {
        // R: exp(log(1.02) + (qt(0.975, 7) + qt(0.8, 7)) * 0.05) - 1 = 0.200617...
        Assert.Equal(20.0617, PrecisionEstimate.Detectable(0.05, 7, 2), 3);
        Assert.Equal(2, PrecisionEstimate.Detectable(0, 7, 2), 9);
    }

    [Fact]
    public void A_change_as_large_as_the_detectable_one_is_called_slower_about_80_percent_of_the_time()
    {
        var random = new Random(5);
        const int pairs = 8,
            iterations = 10,
            repeats = 2000;
        const double topologySd = 0.06,
            iterationSd = 0.12;
        // What the method reports for these components (expected standard error of the mean log ratio).
        var pairSd = Math.Sqrt(2 * (topologySd * topologySd + iterationSd * iterationSd / iterations));
        var effect = PrecisionEstimate.Detectable(pairSd / Math.Sqrt(pairs), pairs - 1, 2) / 100;
        var slower = 0;
        for (var r = 0; r < repeats; r++)
        {
            var baseline = Arm(random, pairs, iterations, 1, topologySd, iterationSd);
            var candidate = Arm(random, pairs, iterations, 1 + effect, topologySd, iterationSd);
            if (
                Verdict.Of(
                    TopologyComparison.Compare(baseline, candidate, paired: true, seed: r),
                    2,
                    higherIsWorse: true
                ) == Verdict.Slower
            )
            {
                slower++;
            }
        }
        // 80 % by construction; the t quantiles make it an approximation for a random standard error.
        Assert.InRange(slower / (double)repeats, 0.72, 0.88);
    }

    [Fact]
    public void Iteration_noise_that_explains_the_pairs_spread_asks_for_more_iterations_and_topology_spread_for_fewer()
    {
        var random = new Random(9);
        const int pairs = 400,
            iterations = 10;
        // Only iteration noise: the pairs' variance is all of it.
        var noiseOnly = Precision(
            random,
            pairs,
            iterations,
            topologySd: 0,
            iterationSd: 0.12,
            topologySeconds: 10,
            iterationSeconds: 0.1
        );
        Assert.InRange(noiseOnly.IterationNoiseShare, 0.85, 1);
        Assert.True(noiseOnly.SuggestedIterations >= 50, $"suggested {noiseOnly.SuggestedIterations}");

        // Topologies differ a lot and iterations little: iterations beyond a few buy nothing.
        var topologyOnly = Precision(
            random,
            pairs,
            iterations,
            topologySd: 0.10,
            iterationSd: 0.02,
            topologySeconds: 10,
            iterationSeconds: 0.1
        );
        Assert.InRange(topologyOnly.IterationNoiseShare, 0, 0.05);
        Assert.InRange(topologyOnly.SuggestedIterations!.Value, 2, 5);

        // Both: pairs vary by 2 * 0.05^2 between topologies, so sqrt(2 * 0.12^2 * 10 / (2 * 0.05^2 * 0.1)) = 24.
        var both = Precision(
            random,
            pairs,
            iterations,
            topologySd: 0.05,
            iterationSd: 0.12,
            topologySeconds: 10,
            iterationSeconds: 0.1
        );
        Assert.InRange(both.SuggestedIterations!.Value, 19, 30);
        Assert.InRange(both.IterationNoiseShare, 0.28, 0.45); // 2·0.0144/10 = 0.00288 of 0.00288 + 2·0.0025: 0.37
    }

    /// <summary>
    /// Alternating arms: a moment of the machine common to both invocations of a turn (here a drift 4 times the
    /// iteration noise) is in each arm's own variance but not in the pair's ratio; the paired figure leaves it out and
    /// finds the noise that is there (2 · 0.05² per turn, 0.05² per arm), so the iterations it asks for follow the pairs' spread.
    /// </summary>
    [Fact]
    public void With_alternating_arms_iteration_noise_is_that_of_the_turns_not_of_the_moment_both_arms_share()
    {
        var random = new Random(11);
        const int pairs = 300,
            turns = 40;
        var baseline = new List<IReadOnlyList<double>>();
        var candidate = new List<IReadOnlyList<double>>();
        for (var p = 0; p < pairs; p++)
        {
            var moment = Enumerable.Range(0, turns).Select(_ => Math.Exp(0.2 * Normal(random))).ToList();
            baseline.Add(moment.Select(m => 100 * m * (1 + 0.05 * Normal(random))).ToList());
            candidate.Add(moment.Select(m => 100 * m * (1 + 0.05 * Normal(random))).ToList());
        }

        var paired = PrecisionEstimate.PairedWithinVariance(baseline, candidate)!.Value;
        var ownArm = baseline.Concat(candidate).Average(v => SampleVariance.Of(v) / (v.Average() * v.Average()));

        Assert.InRange(Math.Sqrt(paired), 0.045, 0.055);
        Assert.True(
            ownArm > 10 * paired,
            $"each arm's own variance {ownArm} should count the moment, the paired {paired} not"
        );
        // A pair of one turn has no noise figure; then the caller keeps each arm's own.
        Assert.Null(
            PrecisionEstimate.PairedWithinVariance(
                [
                    [1.0],
                    [1.0, 2.0],
                ],
                [
                    [1.0],
                    [1.0, 2.0],
                ]
            )
        );
    }

    [Fact]
    public void Without_costs_or_with_one_pair_nothing_is_suggested()
    {
        Assert.Null(PrecisionEstimate.Of([0.01], 0.01, 10, 10, 0.1, 2));
        Assert.Null(PrecisionEstimate.Of([0.01, -0.02], 0.01, 10, double.NaN, 0.1, 2)!.SuggestedIterations);
    }

    private static ComparisonPrecision Precision(
        Random random,
        int pairs,
        int iterations,
        double topologySd,
        double iterationSd,
        double topologySeconds,
        double iterationSeconds
    )
    {
        var baseline = Arm(random, pairs, iterations, 1, topologySd, iterationSd);
        var candidate = Arm(random, pairs, iterations, 1, topologySd, iterationSd);
        var logRatios = candidate.Zip(baseline, (c, b) => Math.Log(c.Average() / b.Average())).ToList();
        var within = baseline.Concat(candidate).Average(v => SampleVariance.Of(v) / (v.Average() * v.Average()));
        return PrecisionEstimate.Of(logRatios, within, iterations, topologySeconds, iterationSeconds, 2)!;
    }

    /// <summary>Topology means log-normal around <paramref name="level"/>, iterations normal around each topology's mean.</summary>
    private static List<IReadOnlyList<double>> Arm(
        Random random,
        int topologies,
        int iterations,
        double level,
        double topologySd,
        double iterationSd
    ) =>
        Enumerable
            .Range(0, topologies)
            .Select(_ =>
            {
                var mean = 100 * level * Math.Exp(topologySd * Normal(random));
                return (IReadOnlyList<double>)
                    Enumerable.Range(0, iterations).Select(_ => mean * (1 + iterationSd * Normal(random))).ToList();
            })
            .ToList();

    private static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
