using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>The table of figures against a scenario's size, on cases with known figures.</summary>
[Trait("Category", "Unit")]
public class ScalingReportTests
{
    [Fact]
    public void A_run_with_two_hub_sizes_has_a_row_per_size_with_its_busiest_node_and_one_size_has_no_table()
    {
        // The hub's CPU per payment doubles with its peers; the payers' stays.
        CaseResults[] cases =
        [
            Case(10, 1, hubCpuMs: 20),
            Case(10, 2, hubCpuMs: 22),
            Case(20, 1, hubCpuMs: 40),
            Case(20, 2, hubCpuMs: 44),
        ];

        var table = ScalingReport.Markdown(cases);

        Assert.Contains("## How the figures grow with PeerCount", table);
        Assert.Contains("| Build=a, Concurrency=1, Traces=on | 10 | 2 | 500 | 2.0 | 26.0 | - | hub 21.0 | - |", table);
        Assert.Contains("| Build=a, Concurrency=1, Traces=on | 20 | 2 | 500 | 2.0 | 47.0 | - | hub 42.0 | - |", table);
        // Concurrency is no size; a size with one value makes no table.
        Assert.Equal("", ScalingReport.Markdown([Case(10, 1, 20), Case(10, 2, 22)]));
    }

    /// <summary>Two measured invocations of one payment, 0.5 s each; the hub used the CPU given, alice 5 ms.</summary>
    private static CaseResults Case(int peers, int topology, double hubCpuMs)
    {
        var key = $"Build=a, Concurrency=1, PeerCount={peers}, Topology={topology}, Traces=on";
        var results = new CaseResults(key, 1)
        {
            Parameters = new Dictionary<string, string>
            {
                ["Build"] = "a",
                ["Concurrency"] = "1",
                ["PeerCount"] = $"{peers}",
                ["Topology"] = $"{topology}",
                ["Traces"] = "on",
            },
        };
        foreach (var id in new long[] { 1, 2 })
        {
            var invocation = results.StartInvocation();
            var start = DateTimeOffset.UnixEpoch.AddSeconds(id);
            results.Add(
                new OperationRecord(
                    key,
                    invocation,
                    id,
                    "alice-1",
                    "bob-1",
                    start,
                    start.AddMilliseconds(2),
                    start.AddMilliseconds(500),
                    $"hash{id}",
                    OperationOutcome.Succeeded,
                    null
                )
            );
            results.CompleteInvocation(invocation, TimeSpan.FromMilliseconds(500));
            results.RecordCpu(
                invocation,
                new Dictionary<string, long> { ["hub"] = (long)(hubCpuMs * 1e6), ["alice-1"] = 5_000_000 }
            );
        }
        results.Complete(warmups: 0, iterations: 2);
        results.Finish(500e6, 1e6, [500e6, 500e6]);
        return results;
    }
}
