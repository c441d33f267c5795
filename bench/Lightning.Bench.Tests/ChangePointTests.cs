using Lightning.Bench.Statistics;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// Change points over histories of runs (<see cref="ChangePoints"/>), on synthetic series with known steps and none:
/// seeded, so every figure is reproducible. A run's figure varies about 3 % from run to run here (timed metrics).
/// </summary>
[Trait("Category", "Unit")]
public class ChangePointTests(ITestOutputHelper output)
{
    private const double RunSpread = 0.03;

    [Fact]
    public void A_step_is_found_where_it_is_with_its_size()
    {
        var random = new Random(11);
        var series = Enumerable
            .Range(0, 30)
            .Select(i => 100 * (i >= 18 ? 1.10 : 1.0) * Math.Exp(RunSpread * Gaussian(random)))
            .ToList();

        var step = Assert.Single(ChangePoints.Find(series));
        Assert.InRange(step.Index, 17, 19);
        Assert.InRange(step.RelativeChange, 0.07, 0.13);
        Assert.True(step.PValue < ChangePoints.DefaultPValue);
    }

    [Fact]
    public void Two_steps_are_both_found_and_a_single_odd_run_is_not_a_step()
    {
        var random = new Random(13);
        var series = Enumerable
            .Range(0, 40)
            .Select(i => 100 * (i >= 12 ? 1.12 : 1.0) * (i >= 28 ? 0.88 : 1.0) * Math.Exp(RunSpread * Gaussian(random)))
            .ToList();
        Assert.Equal(
            [12, 28],
            ChangePoints
                .Find(series)
                .Select(c => c.Index)
                .Select(i =>
                    Math.Abs(i - 12) <= 1 ? 12
                    : Math.Abs(i - 28) <= 1 ? 28
                    : i
                )
        );

        var flat = Enumerable.Range(0, 30).Select(i => 100 * Math.Exp(RunSpread * Gaussian(random))).ToList();
        flat[15] *= 1.4;
        Assert.Empty(ChangePoints.Find(flat));
    }

    [Fact]
    public void The_energy_statistic_is_negative_for_identical_halves_and_grows_with_the_gap()
    {
        // Within-side distances are averaged over distinct pairs (U-statistics), so identical halves score below zero:
        // 3/2 · (2 · 8/9 − 4/3 − 4/3) = −4/3.
        double[] same = [1, 2, 3, 1, 2, 3];
        Assert.Equal(-4.0 / 3, ChangePoints.EnergyStatistic(same, 0, 3, 6), 12);
        double[] apart = [1, 2, 3, 11, 12, 13];
        double[] further = [1, 2, 3, 21, 22, 23];
        Assert.True(ChangePoints.EnergyStatistic(further, 0, 3, 6) > ChangePoints.EnergyStatistic(apart, 0, 3, 6));
        Assert.Equal(3, ChangePoints.BestSplit(apart, 0, 6));
        Assert.Throws<ArgumentException>(() => ChangePoints.Find([1, 0, 2]));
    }

    /// <summary>
    /// 1000 histories of 40 runs without a step: how many show any change point (the false-alarm rate per history),
    /// and 1000 with a step of 5 % (about 1.7 run-to-run SDs) at run 20: how many find it within one run of its place.
    /// </summary>
    [Fact]
    public void False_alarms_stay_rare_and_a_five_percent_step_is_found_in_place()
    {
        var random = new Random(17);
        const int Histories = 1000;
        var falseAlarms = 0;
        var found = 0;
        for (var h = 0; h < Histories; h++)
        {
            var flat = Enumerable.Range(0, 40).Select(_ => 100 * Math.Exp(RunSpread * Gaussian(random))).ToList();
            falseAlarms += ChangePoints.Find(flat).Count > 0 ? 1 : 0;
            var stepped = Enumerable
                .Range(0, 40)
                .Select(i => 100 * (i >= 20 ? 1.05 : 1.0) * Math.Exp(RunSpread * Gaussian(random)))
                .ToList();
            found += ChangePoints.Find(stepped).Any(c => Math.Abs(c.Index - 20) <= 1) ? 1 : 0;
        }
        output.WriteLine(
            $"40-run histories, 3 % run-to-run spread: {falseAlarms} of {Histories} without a step show one; a 5 % step found in place in {found} of {Histories}"
        );
        Assert.True(falseAlarms <= 0.05 * Histories, $"{falseAlarms} false alarms");
        Assert.True(found >= 0.65 * Histories, $"found {found}");
    }

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
