namespace Lightning.Bench.Results;

/// <summary>CPU milliseconds the Lightning nodes spent per successful payment (cgroup user + system), idle rate subtracted.</summary>
/// <param name="Iterations">Per measured invocation, all nodes together.</param>
/// <param name="ByNode">Per node, over all measured invocations; at or below zero for a node within the idle noise (<see cref="IsWithinIdleNoise"/>).</param>
/// <param name="WithIdleMs">All nodes, over all measured invocations, without subtracting the idle rate.</param>
internal sealed record CpuPerPayment(
    IReadOnlyList<double> Iterations,
    IReadOnlyDictionary<string, double> ByNode,
    double WithIdleMs
)
{
    /// <summary>What the reports write for a figure within the idle noise, instead of a cost of zero or below.</summary>
    public const string IdleNoise = "within idle noise";

    public double Ms => ByNode.Values.Sum();

    /// <summary>The nodes that spent no more in the measured invocations than their idle rate says they spend doing nothing.</summary>
    public IReadOnlyList<string> WithinIdleNoise =>
        ByNode.Where(n => IsWithinIdleNoise(n.Value)).Select(n => n.Key).Order(StringComparer.Ordinal).ToList();

    /// <summary>
    /// A node that did no work the cgroup can tell from idling (bob and carol while alice queries routes): what it spent
    /// over the measured invocations is its idle rate's worth or less, and the idle rate, measured in a few seconds
    /// apart from them, varies by more than that difference. Its cost is not negative; it is not measured.
    /// </summary>
    public static bool IsWithinIdleNoise(double ms) => double.IsFinite(ms) && ms <= 0;
}
