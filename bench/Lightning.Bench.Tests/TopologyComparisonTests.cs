using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;
using Lightning.Bench.Topology;
using Perfolizer.Mathematics.SignificanceTesting;
using Perfolizer.Mathematics.SignificanceTesting.Base;
using Perfolizer.Metrology;
using Pragmastat;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class TopologyComparisonTests
{
    private static readonly double[] BaselineMeans = [100, 110, 95, 105, 98];
    private static readonly double[] CandidateMeans = [103, 113, 99, 107, 104];

    [Fact]
    public void Paired_and_unpaired_intervals_match_r_t_test_on_log_topology_means()
    {
        // Reference: R, exp(t.test(log(c/b))$conf.int) and exp(t.test(log(c), log(b))$conf.int) (Welch).
        var paired = TopologyComparison.Compare(
            AsTopologies(BaselineMeans),
            AsTopologies(CandidateMeans),
            paired: true,
            seed: 1
        );
        Assert.True(paired.Paired);
        Assert.Equal(1.0358270852, paired.Ratio, 8);
        Assert.Equal(1.0157835542, paired.Low, 8);
        Assert.Equal(1.0562661168, paired.High, 8);
        Assert.Equal(0.0074818112, paired.PValue, 8);

        var unpaired = TopologyComparison.Compare(
            AsTopologies(BaselineMeans),
            AsTopologies(CandidateMeans),
            paired: false,
            seed: 1
        );
        Assert.False(unpaired.Paired);
        Assert.Equal(1.0358270852, unpaired.Ratio, 8);
        Assert.Equal(0.9573708057, unpaired.Low, 8);
        Assert.Equal(1.1207128356, unpaired.High, 8);
        Assert.Equal(0.3315528396, unpaired.PValue, 8);
    }

    [Theory]
    [InlineData(1.03, 1.06, true, Verdict.Slower)]
    [InlineData(1.03, 1.06, false, Verdict.Faster)]
    [InlineData(0.90, 0.97, true, Verdict.Faster)]
    [InlineData(0.99, 1.015, true, Verdict.Same)]
    [InlineData(1.01, 1.05, true, Verdict.Unknown)]
    [InlineData(0.95, 1.05, false, Verdict.Unknown)]
    public void A_verdict_reads_the_interval_against_the_threshold(
        double low,
        double high,
        bool higherIsWorse,
        string expected
    ) =>
        Assert.Equal(
            expected,
            Verdict.Of(
                new RatioInterval(Math.Sqrt(low * high), low, high, 5, 5, true, 0.01, low, high),
                2,
                higherIsWorse
            )
        );

    [Fact]
    public void One_topology_per_arm_gives_no_interval_and_no_verdict()
    {
        var one = TopologyComparison.Compare(
            [
                [100, 101, 99],
            ],
            [
                [130, 131, 129],
            ],
            paired: true,
            seed: 1
        );
        Assert.False(one.HasInterval);
        Assert.Equal(Verdict.Unknown, Verdict.Of(one, 2, higherIsWorse: true));
    }

    /// <summary>
    /// Topologies differ more than iterations (13 % between, 3 % within, as measured here): a test on iterations pooled
    /// across topologies calls most A/A comparisons a difference, while the topology-level interval holds its 5 %; with 8
    /// pairs at that spread, a 30 % regression is called slower at least 4 times in 5.
    /// </summary>
    [Fact]
    public void Between_topology_variance_makes_iteration_tests_lie_and_the_topology_method_does_not()
    {
        var random = new Random(20261122);
        const int comparisons = 400;
        int iterationLevelFalse = 0,
            topologyLevelFalse = 0,
            regressionsFound = 0,
            covered = 0;
        for (var i = 0; i < comparisons; i++)
        {
            var drift = Enumerable.Range(0, 8).Select(r => 1 + 0.02 * r).ToArray(); // the machine slows over the run
            var a = Arm(random, drift, 1.0);
            var b = Arm(random, drift, 1.0);
            if (
                WelchTest.Instance.GetPValue(
                    new Sample(a.SelectMany(t => t).ToArray()),
                    new Sample(b.SelectMany(t => t).ToArray()),
                    AlternativeHypothesis.TwoSides,
                    Threshold.Zero
                ) < 0.05
            )
            {
                iterationLevelFalse++;
            }
            if (
                Verdict.Of(TopologyComparison.Compare(a, b, paired: true, seed: i), 2, true)
                is Verdict.Slower
                    or Verdict.Faster
            )
            {
                topologyLevelFalse++;
            }
            var slow = TopologyComparison.Compare(a, Arm(random, drift, 1.30), paired: true, seed: i);
            regressionsFound += Verdict.Of(slow, 2, true) == Verdict.Slower ? 1 : 0;
            covered += slow.Low <= 1.30 && 1.30 <= slow.High ? 1 : 0;
        }
        Assert.True(
            iterationLevelFalse > comparisons / 2,
            $"pooled iterations: {iterationLevelFalse} of {comparisons} A/A called different"
        );
        Assert.True(
            topologyLevelFalse <= comparisons * 0.05,
            $"topologies: {topologyLevelFalse} of {comparisons} A/A called slower or faster"
        );
        Assert.True(
            regressionsFound >= comparisons * 0.8,
            $"a 30 % regression found in {regressionsFound} of {comparisons}"
        );
        Assert.InRange(covered, comparisons * 0.92, comparisons);
    }

    /// <summary>8 topologies: each with its own level (13 % SD) times the machine's drift, 10 iterations around it (3 % SD).</summary>
    private static IReadOnlyList<IReadOnlyList<double>> Arm(Random random, double[] drift, double effect) =>
        drift
            .Select(d =>
            {
                var level = 100 * effect * d * Math.Exp(0.13 * Normal(random));
                return (IReadOnlyList<double>)
                    Enumerable.Range(0, 10).Select(_ => level * (1 + 0.03 * Normal(random))).ToList();
            })
            .ToList();

    private static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    [Fact]
    public void A_topology_where_no_operation_ended_as_expected_has_no_mean_time_and_leaves_its_pair_out()
    {
        // Four pairs, the candidate 10 % slower in each; in pair 3 every candidate payment failed fast (18.9 ms, as an
        // LND topology's INSUFFICIENT_BALANCE did): its time is not the workload's, and it must not pull the ratio down.
        var cases = Enumerable
            .Range(1, 4)
            .SelectMany(t =>
                new[]
                {
                    Case("a", t, 100 + (10 * t), 3, 0),
                    t == 3
                        ? Case("b", t, 18.9, 0, 3)
                        : Case("b", t, (100 + (10 * t)) * (t % 2 == 0 ? 1.11 : 1.09), 3, 0),
                }
            )
            .ToList();

        var comparisons = ArmComparer.Of(cases, ["a", "b"], [TraceModes.On], 2, seed: 5).Comparisons;

        var mean = Assert.Single(comparisons, c => c.Metric == "mean time");
        Assert.True(mean.Interval.Paired);
        Assert.Equal((3, 3), (mean.Interval.BaselineTopologies, mean.Interval.CandidateTopologies));
        Assert.InRange(mean.Interval.Ratio, 1.09, 1.11);
        Assert.Equal(Verdict.Slower, mean.Verdict);
        // Its payments/s was 0 there: no ratio, which says a topology measured 0 rather than hiding it.
        Assert.Equal(Verdict.NoRatio, Assert.Single(comparisons, c => c.Metric == "payments/s").Verdict);
        Assert.Empty(ComparisonMetric.MeanTime.IterationValues(TopologySample.Of(cases.Single(c => c.Succeeded == 0))));
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(4, true)]
    public void A_candidate_whose_operations_all_failed_in_every_pair_is_slower_from_the_second_pair(
        int pairs,
        bool decided
    )
    {
        // The build under test fails every payment (fast, 2 ms) in each of its topologies; the baseline's all succeed.
        var cases = Enumerable
            .Range(1, pairs)
            .SelectMany(t => new[] { Case("a", t, 100 + t, 3, 0), Case("b", t, 2, 0, 3) })
            .ToList();

        var run = ArmComparer.Of(cases, ["a", "b"], [TraceModes.On], 2, seed: 5);

        // It has no mean time to compare; its payments/s is 0 in every pair: a ratio of exactly 0.
        Assert.DoesNotContain(run.Comparisons, c => c.Metric == "mean time");
        var rate = Assert.Single(run.Comparisons, c => c.Metric == "payments/s");
        Assert.Equal(0, rate.Interval.Ratio);
        Assert.Equal(decided ? Verdict.Slower : Verdict.Unknown, rate.Verdict);
        Assert.Equal(decided, rate.Interval.HasInterval);
        Assert.Null(rate.Precision);
        // And the gate trips on it (one pair is not enough: a budgeted run waits for the second).
        Assert.Equal(decided ? HarnessExit.Gate : 0, VerdictsReport.GateExit(0, ["slower"], run, null));
        Assert.Equal(decided ? 0 : HarnessExit.Gate, VerdictsReport.GateExit(0, ["unknown"], run, null));
    }

    [Fact]
    public void Zeros_on_one_side_in_every_pair_decide_and_any_other_mix_has_no_ratio()
    {
        IReadOnlyList<IReadOnlyList<double>> Zeros(int n) => [.. Enumerable.Repeat<IReadOnlyList<double>>([0, 0], n)];
        IReadOnlyList<IReadOnlyList<double>> Rates(params double[] r) =>
            [.. r.Select(x => (IReadOnlyList<double>)[x, x])];

        var candidateFailed = TopologyComparison.Compare(Rates(10, 11, 12), Zeros(3), paired: true, seed: 1);
        Assert.Equal((0.0, 0.0, 0.0), (candidateFailed.Ratio, candidateFailed.Low, candidateFailed.High));
        Assert.Equal(Verdict.Slower, Verdict.Of(candidateFailed, 2, higherIsWorse: false));

        // The baseline failed where the candidate did not: a build that mends a broken one is faster.
        var baselineFailed = TopologyComparison.Compare(Zeros(3), Rates(10, 11, 12), paired: true, seed: 1);
        Assert.True(double.IsPositiveInfinity(baselineFailed.Low));
        Assert.Equal(Verdict.Faster, Verdict.Of(baselineFailed, 2, higherIsWorse: false));

        // One failed topology among working ones, or both arms measuring 0 (storage of a call that writes nothing): no ratio.
        IReadOnlyList<IReadOnlyList<double>> mixed =
        [
            [10, 10],
            [0, 0],
            [12, 12],
        ];
        Assert.Equal(
            Verdict.NoRatio,
            Verdict.Of(TopologyComparison.Compare(Rates(10, 11, 12), mixed, true, 1), 2, false)
        );
        Assert.Equal(Verdict.NoRatio, Verdict.Of(TopologyComparison.Compare(Zeros(3), Zeros(3), true, 1), 2, true));
        // A candidate with no values at all has no ratio either, not a ratio of 0.
        Assert.True(double.IsNaN(TopologyComparison.Compare(Rates(10, 11, 12), [], paired: true, seed: 1).Ratio));
        // Unpaired (across runs) the same holds only with pairs: without them the zeros say nothing about which pair.
        Assert.Equal(
            Verdict.Unknown,
            Verdict.Of(TopologyComparison.Compare(Rates(10, 11, 12), Zeros(3), paired: false, seed: 1), 2, false)
        );
    }

    private static CaseSummary Case(string build, int topology, double ms, int succeeded, int failed) =>
        CaseSummaries.Of(build, topology, [ms * 0.99, ms, ms * 1.01], succeeded, failed);

    private static IReadOnlyList<IReadOnlyList<double>> AsTopologies(double[] means) =>
        means.Select(m => (IReadOnlyList<double>)[m]).ToList();
}
