using Lightning.Bench.Statistics;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// The budgeted comparison's interval (<see cref="ConfidenceSequence"/>): looked at after every pair, it must keep its
/// 5 %, where a t-interval looked at the same way does not. Synthetic pairs, seeded: no machine, no clock.
/// </summary>
[Trait("Category", "Unit")]
public class ConfidenceSequenceTests(ITestOutputHelper output)
{
    private const int Sequences = 2000;
    private const int MaxPairs = 40;

    [Fact]
    public void Its_martingale_starts_at_one_and_the_interval_is_where_it_stays_below_twenty()
    {
        // One observation carries no scale: the factor is exactly 1 whatever it is.
        Assert.Equal(0, ConfidenceSequence.LogBayesFactor([0.37], 0), 12);
        Assert.Equal(0, ConfidenceSequence.LogBayesFactor([-5], 1), 12);
        double[] x = [0.031, 0.012, 0.044, 0.020, 0.035, 0.027, 0.018, 0.040, 0.029, 0.024];
        var (mean, half) = ConfidenceSequence.Of(x);
        // At either end of the interval the factor is exactly 1/α = 20; inside it is below, outside above.
        Assert.Equal(Math.Log(20), ConfidenceSequence.LogBayesFactor(x, mean + half), 9);
        Assert.Equal(Math.Log(20), ConfidenceSequence.LogBayesFactor(x, mean - half), 9);
        Assert.True(ConfidenceSequence.LogBayesFactor(x, mean) < Math.Log(20));
        Assert.True(ConfidenceSequence.LogBayesFactor(x, mean + 1.01 * half) > Math.Log(20));
    }

    [Fact]
    public void It_is_the_whole_line_until_four_pairs_and_wider_than_the_fixed_t_interval_after()
    {
        Assert.Equal(4, ConfidenceSequence.FirstFinite);
        Assert.True(double.IsPositiveInfinity(ConfidenceSequence.HalfWidth(3, 2)));
        // With the sample SD at 1: at 10 pairs the fixed t-interval's half-width is 0.715; the sequence pays for peeking.
        var at10 = ConfidenceSequence.HalfWidth(10, 9);
        Assert.InRange(at10 / 0.7154, 1.5, 2.0);
        // It narrows as pairs come: about as 1/√n (up to a log factor).
        Assert.InRange(ConfidenceSequence.HalfWidth(40, 39) / at10, 0.4, 0.5);
    }

    /// <summary>
    /// A/A: 2000 sequences of up to 40 pairs with no difference, pairs' SD 4 % (about a timed pair here), threshold 2 %,
    /// the verdict read after every pair from the 3rd and the sequence stopped at the first slower/faster/same. False
    /// slower/faster must stay at 5 % or less; the same peeking on the fixed t-interval is shown to break it, so the
    /// check has teeth.
    /// </summary>
    [Fact]
    public void Peeking_after_every_pair_keeps_false_calls_at_five_percent_and_the_t_interval_does_not()
    {
        var sequential = Simulate(0, 0.04, 2, useSequence: true, seed: 23);
        var naive = Simulate(0, 0.04, 0, useSequence: false, seed: 23);
        Assert.True(sequential.False <= 0.05 * Sequences, $"{sequential.False} of {Sequences} false calls");
        // With a 0 % threshold the naive t-interval, looked at after every pair, calls far more than 5 %.
        Assert.True(naive.False > 0.15 * Sequences, $"naive peeking: {naive.False} of {Sequences}");
        // The sequence holds even with no practical threshold at all.
        var strict = Simulate(0, 0.04, 0, useSequence: true, seed: 29);
        output.WriteLine(
            $"A/A, {Sequences} sequences of up to {MaxPairs} pairs, SD 4 %: sequence at 2 %: {sequential}; at 0 %: {strict}; t-interval peeked at 0 %: {naive}"
        );
        Assert.True(strict.False <= 0.05 * Sequences, $"{strict.False} of {Sequences} false calls at threshold 0");
    }

    // A budgeted run measures more iterations per topology after its first round (IterationPlan), so later pairs vary
    // less than the first four: the sequence pools them all and must still keep its 5 %.
    [Fact]
    public void Pairs_that_vary_less_after_the_first_round_keep_false_calls_at_five_percent()
    {
        var tighter = Simulate(0, 0.04, 2, useSequence: true, seed: 37, sdAfterFirstRound: 0.025);
        var strict = Simulate(0, 0.04, 0, useSequence: true, seed: 41, sdAfterFirstRound: 0.025);
        var looser = Simulate(0, 0.025, 0, useSequence: true, seed: 43, sdAfterFirstRound: 0.04);
        output.WriteLine(
            $"A/A, SD 4 % then 2.5 %: at 2 %: {tighter}; at 0 %: {strict}; SD 2.5 % then 4 % at 0 %: {looser}"
        );
        Assert.True(tighter.False <= 0.05 * Sequences, $"{tighter.False} of {Sequences}");
        Assert.True(strict.False <= 0.05 * Sequences, $"{strict.False} of {Sequences}");
        Assert.True(looser.False <= 0.05 * Sequences, $"{looser.False} of {Sequences}");
    }

    [Fact]
    public void A_five_percent_change_at_four_percent_spread_is_called_slower_and_its_interval_covers_it()
    {
        var result = Simulate(Math.Log(1.05), 0.04, 2, useSequence: true, seed: 31);
        output.WriteLine($"+5 %, SD 4 %, threshold 2 %: {result}, mean pairs {result.MeanPairs:F1}");
        Assert.True(result.Slower >= 0.8 * Sequences, $"{result.Slower} of {Sequences} slower");
        Assert.Equal(0, result.Faster);
        Assert.True(
            result.Covered >= 0.95 * Sequences,
            $"{result.Covered} of {Sequences} stopped intervals cover the true ratio"
        );
    }

    [Theory]
    [InlineData(0.01, 0.04)]
    [InlineData(0.005, 0.002)]
    public void The_pairs_a_width_needs_are_the_first_count_that_reaches_it(double wanted, double sd)
    {
        var n = ConfidenceSequence.PairsFor(wanted, sd)!.Value;
        Assert.True(ConfidenceSequence.HalfWidth(n, sd * sd * (n - 1)) <= wanted);
        Assert.True(
            n == ConfidenceSequence.FirstFinite || ConfidenceSequence.HalfWidth(n - 1, sd * sd * (n - 2)) > wanted
        );
        Assert.Null(ConfidenceSequence.PairsFor(0, sd));
    }

    private sealed record Outcome(int Slower, int Faster, int Same, int Covered, double MeanPairs)
    {
        public int False => Slower + Faster;
    }

    private static Outcome Simulate(
        double trueLogRatio,
        double sd,
        double thresholdPercent,
        bool useSequence,
        int seed,
        double? sdAfterFirstRound = null
    )
    {
        var random = new Random(seed);
        int slower = 0,
            faster = 0,
            same = 0,
            covered = 0,
            pairsUsed = 0;
        var up = Math.Log(1 + thresholdPercent / 100);
        for (var s = 0; s < Sequences; s++)
        {
            var pairs = new List<double>();
            string? verdict = null;
            double low = double.NegativeInfinity,
                high = double.PositiveInfinity;
            for (var n = 1; n <= MaxPairs && verdict is null; n++)
            {
                pairs.Add(
                    trueLogRatio
                        + (n > ConfidenceSequence.FirstFinite && sdAfterFirstRound is { } later ? later : sd)
                            * Gaussian(random)
                );
                if (n < 3)
                {
                    continue;
                }
                var mean = pairs.Average();
                var half = useSequence
                    ? ConfidenceSequence.Of(pairs).HalfWidth
                    : TQuantile(n - 1) * Math.Sqrt(SampleVariance.Of(pairs) / n);
                (low, high) = (mean - half, mean + half);
                verdict =
                    low > up ? Verdict.Slower
                    : high < -up ? Verdict.Faster
                    : thresholdPercent > 0 && low >= -up && high <= up ? Verdict.Same
                    : null;
            }
            slower += verdict == Verdict.Slower ? 1 : 0;
            faster += verdict == Verdict.Faster ? 1 : 0;
            same += verdict == Verdict.Same ? 1 : 0;
            covered += low <= trueLogRatio && trueLogRatio <= high ? 1 : 0;
            pairsUsed += pairs.Count;
        }
        return new Outcome(slower, faster, same, covered, (double)pairsUsed / Sequences);
    }

    private static double TQuantile(int df) =>
        new Perfolizer.Mathematics.Distributions.ContinuousDistributions.StudentDistribution(df).Quantile(
            new Pragmastat.Probability(0.975)
        );

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
