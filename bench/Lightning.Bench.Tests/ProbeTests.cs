using Lightning.Bench.Results;
using Lightning.Bench.Statistics;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The responsiveness probe's figures on samples with known answers, and its metric in comparisons.</summary>
[Trait("Category", "Unit")]
public class ProbeTests
{
    [Fact]
    public void A_node_that_freezes_once_shows_its_slowest_answer_in_that_invocation_and_its_longest_stall()
    {
        // Every 100 ms for 3 s, each node answers in 2 ms; bob freezes for 1.5 s in invocation 2 (a call that waits).
        var samples = new List<ProbeSample>();
        foreach (var node in new[] { "alice", "bob" })
        {
            var t = 0L;
            for (var i = 0; i < 30; i++)
            {
                var invocation =
                    i < 5 ? 0
                    : i < 15 ? 1
                    : i < 25 ? 2
                    : 3;
                var latency = node == "bob" && i == 18 ? 1500 : 2;
                samples.Add(new ProbeSample(node, invocation, invocation > 0, 1_000_000_000 + t * 1000, latency, null));
                t += Math.Max(100, latency);
            }
        }
        samples.Add(new ProbeSample("alice", 3, true, 1_000_000_000 + 3_000_000, 60_000, "no answer in 60 s"));

        var figures = ProbeFigures.Of(samples)!;

        // Per measured invocation, the slowest answer of any node: bob's freeze in invocation 2 only.
        Assert.Equal([2.0, 1500, 2], figures.WorstIterationsMs);
        var bob = figures.ByNode["bob"];
        Assert.Equal((30, 0, 2.0, 1500.0), (bob.Calls, bob.Unanswered, bob.P50Ms, bob.MaxMs));
        // From the answer before the freeze to the one after: 100 ms of interval, then the 1.5 s call, then the next.
        Assert.InRange(bob.LongestStallMs, 1500, 1700);
        var alice = figures.ByNode["alice"];
        Assert.Equal(1, alice.Unanswered);
        Assert.Equal(100, alice.LongestStallMs, 6);
        Assert.Null(ProbeFigures.Of([]));
    }

    [Fact]
    public void Rpc_wait_is_compared_only_when_every_topology_has_probe_answers()
    {
        TopologySample Sample(IReadOnlyList<double> probe) => new([100, 110], 1, 1, [5, 5]) { ProbeWorstMs = probe };

        Assert.Contains(ComparisonMetric.RpcWait, ComparisonMetric.For([Sample([3, 4]), Sample([5])]));
        Assert.DoesNotContain(ComparisonMetric.RpcWait, ComparisonMetric.For([Sample([3, 4]), Sample([])]));
        Assert.Equal([3.0, 4], ComparisonMetric.RpcWait.IterationValues(Sample([3, 4])));
        Assert.True(ComparisonMetric.RpcWait.HigherIsWorse);
    }

    [Fact]
    public void Rpc_wait_is_judged_against_its_own_threshold_so_a_slow_answer_less_is_no_verdict_and_a_freeze_gone_is()
    {
        // Four pairs whose candidate answers 15 % faster at worst, every pair alike: clear of 2 %, not of RPC wait's 25 %.
        static CaseSummary Case(string build, int topology, double worst) =>
            CaseSummaries.Of(build, topology, [50, 50.5, 49.5]) with
            {
                ProbeWorstMsIterations = [worst, worst * 1.01, worst * 0.99],
            };
        RunComparisons Compare(double ratio) =>
            ArmComparer.Of(
                [
                    .. Enumerable
                        .Range(1, 4)
                        .SelectMany(t =>
                            new[]
                            {
                                Case("a", t, 100 + (10 * t)),
                                Case("b", t, (100 + (10 * t)) * ratio * (t % 2 == 0 ? 1.01 : 0.99)),
                            }
                        ),
                ],
                ["a", "b"],
                [TraceModes.On],
                2,
                seed: 5
            );

        var jitter = Assert.Single(Compare(0.85).Comparisons, c => c.Metric == "RPC wait");
        Assert.Equal(ComparisonMetric.RpcWaitThresholdPercent, jitter.ThresholdPercent);
        Assert.InRange(jitter.Interval.High, 0.8, 0.9);
        Assert.NotEqual(Verdict.Faster, jitter.Verdict);
        // The run's own threshold still judges the timed metrics.
        Assert.Equal(2, Assert.Single(Compare(0.85).Comparisons, c => c.Metric == "mean time").ThresholdPercent);
        // A freeze gone (PR 8677's 0.03) is a verdict.
        Assert.Equal(Verdict.Faster, Assert.Single(Compare(0.03).Comparisons, c => c.Metric == "RPC wait").Verdict);
    }

    [Fact]
    public void A_nodes_restart_is_compared_from_its_setup_steps_when_every_topology_restarted_one()
    {
        var withRestart = new SetupTimes([
            new("containers", 1),
            new("history", 2),
            new("restart rpc", 0.4),
            new("restart pay", 0.1),
        ]);
        Assert.Equal([0.5], TopologySample.RestartOf(withRestart));
        Assert.Empty(TopologySample.RestartOf(new SetupTimes([new("containers", 1)])));
        Assert.Empty(TopologySample.RestartOf(null));

        TopologySample Sample(IReadOnlyList<double> restart) =>
            new([100, 110], 1, 1, [5, 5]) { RestartSeconds = restart };
        Assert.Contains(ComparisonMetric.Restart, ComparisonMetric.For([Sample([0.5]), Sample([0.6])]));
        Assert.DoesNotContain(ComparisonMetric.Restart, ComparisonMetric.For([Sample([0.5]), Sample([])]));
    }
}
