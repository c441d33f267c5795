namespace Lightning.Bench.Results;

/// <summary>What a case cost its Lightning nodes beyond CPU: storage writes per successful payment and memory.</summary>
/// <param name="WrittenKbIterations">Per measured invocation, all nodes together: KB written to storage per successful payment.</param>
/// <param name="WrittenKbByNode">Per node, over all measured invocations.</param>
/// <param name="PeakMbByNode">Each node's peak memory (its cgroup's high-water mark, page cache included) up to the case's end.</param>
/// <param name="EndRssMbByNode">Each node's resident (anonymous) memory after the last invocation.</param>
internal sealed record NodeCosts(
    IReadOnlyList<double> WrittenKbIterations,
    IReadOnlyDictionary<string, double> WrittenKbByNode,
    IReadOnlyDictionary<string, double> PeakMbByNode,
    IReadOnlyDictionary<string, double> EndRssMbByNode
)
{
    public double WrittenKb => WrittenKbByNode.Values.Sum();
}
