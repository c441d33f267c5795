using Lightning.Bench.Profiling;
using Lightning.Bench.Results;

namespace Lightning.Bench.Instructions;

/// <summary>One node's function counts in one topology's measured window.</summary>
/// <param name="PerPayment">Self and inclusive instructions per successful payment, each process's idle counts subtracted.</param>
/// <param name="Window">The window's stacks as counted (idle chores included), for the flame graphs.</param>
/// <param name="Payments">The window's successful payments.</param>
internal sealed record TopologyInstructionProfile(
    string CaseKey,
    IReadOnlyDictionary<string, string> Parameters,
    string Node,
    InstructionProfile PerPayment,
    FoldedStacks Window,
    int Payments
)
{
    /// <summary>
    /// The case's identity, read from its parameters when first asked (not written: the parameters are; a soak's
    /// profile windows carry parameters that are no case's, such as StartSeconds=12.0).
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public CaseId Id => field ??= CaseId.Of(Parameters);
}
