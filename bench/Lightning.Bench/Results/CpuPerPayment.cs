namespace Lightning.Bench.Results;

/// <summary>CPU milliseconds the Lightning nodes spent per successful payment (cgroup user + system), idle rate subtracted.</summary>
/// <param name="Iterations">Per measured invocation, all nodes together.</param>
/// <param name="ByNode">Per node, over all measured invocations.</param>
/// <param name="WithIdleMs">All nodes, over all measured invocations, without subtracting the idle rate.</param>
internal sealed record CpuPerPayment(IReadOnlyList<double> Iterations, IReadOnlyDictionary<string, double> ByNode, double WithIdleMs)
{
    public double Ms => ByNode.Values.Sum();
}
