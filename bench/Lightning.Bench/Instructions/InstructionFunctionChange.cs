namespace Lightning.Bench.Instructions;

/// <summary>
/// How one function's instructions per payment moved from the baseline build to the candidate, over paired
/// topologies: means of each build, and the mean paired difference (candidate − baseline) with its interval, for self
/// and inclusive counts. Intervals are NaN with a single pair.
/// </summary>
/// <param name="Label">How tables name it: "name (process)", with the object when the name alone is ambiguous.</param>
/// <param name="TopCallers">Its callers whose calls into it moved most, with that move per payment, largest first.</param>
/// <param name="Judged">Whether it was one of the functions judged (large enough in either build to reach the minimum change).</param>
internal sealed record InstructionFunctionChange(
    InstructionFunction Function,
    string Label,
    double BaselineSelf,
    double CandidateSelf,
    double SelfChange,
    double SelfLow,
    double SelfHigh,
    double BaselineInclusive,
    double CandidateInclusive,
    double InclusiveChange,
    double InclusiveLow,
    double InclusiveHigh,
    IReadOnlyList<(string Caller, double Change)> TopCallers,
    bool Judged,
    FunctionCall Call
);
