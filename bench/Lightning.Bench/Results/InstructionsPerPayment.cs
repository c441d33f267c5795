namespace Lightning.Bench.Results;

/// <summary>Instructions the Lightning nodes executed per successful measured payment, each node's idle rate subtracted.</summary>
/// <param name="ByNode">Per node.</param>
/// <param name="ByProcess">Per node, per process name.</param>
/// <param name="Payments">The successful payments of the measured window.</param>
internal sealed record InstructionsPerPayment(
    IReadOnlyDictionary<string, double> ByNode,
    IReadOnlyDictionary<string, IReadOnlyDictionary<string, double>> ByProcess,
    int Payments
)
{
    public double Total => ByNode.Values.Sum();

    public static InstructionsPerPayment? Of(IReadOnlyDictionary<string, NodeInstructions>? nodes, int payments)
    {
        if (nodes is null || nodes.Count == 0 || payments == 0)
        {
            return null;
        }
        var byProcess = nodes.ToDictionary(
            n => n.Key,
            n => (IReadOnlyDictionary<string, double>)n.Value.Active().ToDictionary(p => p.Key, p => p.Value / payments)
        );
        return new InstructionsPerPayment(
            byProcess.ToDictionary(n => n.Key, n => n.Value.Values.Sum()),
            byProcess,
            payments
        );
    }
}
