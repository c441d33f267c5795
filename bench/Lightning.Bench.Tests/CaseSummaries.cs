using System.Globalization;
using Lightning.Bench.Results;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>
/// A case's summary as a run writes it, for tests of comparisons: one build's topology at Concurrency=1, traces on,
/// one payment an invocation; what a test needs besides (probes, routes) it adds with <c>with</c>.
/// </summary>
internal static class CaseSummaries
{
    /// <param name="iterationsMs">Its measured invocations' times, which its mean, rate and percentiles follow.</param>
    public static CaseSummary Of(
        string build,
        int topology,
        IReadOnlyList<double> iterationsMs,
        int succeeded = 3,
        int failed = 0
    )
    {
        var mean = iterationsMs.Average();
        var sorted = iterationsMs.Order().ToList();
        return new(
            $"Build={build}, Concurrency=1, Topology={topology}",
            new Dictionary<string, string>
            {
                ["Build"] = build,
                ["Concurrency"] = "1",
                ["Topology"] = topology.ToString(CultureInfo.InvariantCulture),
                ["Traces"] = TraceModes.On,
            },
            mean,
            Math.Sqrt(Statistics.SampleVariance.Of(iterationsMs)),
            iterationsMs,
            1,
            1000 / mean,
            sorted[sorted.Count / 2],
            sorted[^1],
            succeeded,
            failed,
            true
        );
    }
}
