namespace Lightning.Bench.Profiling;

/// <summary>
/// How one function's CPU per payment moved from a baseline build to a candidate build, in samples per payment (self:
/// as the leaf, total: anywhere on the stack, once per sample), with its self share of each build's samples (0..1).
/// </summary>
internal sealed record FunctionChange(
    string Function,
    double BaselineSelfPerPayment,
    double CandidateSelfPerPayment,
    double BaselineTotalPerPayment,
    double CandidateTotalPerPayment,
    double BaselineSelfShare,
    double CandidateSelfShare
)
{
    /// <summary>Candidate − baseline self samples per payment: positive when the candidate spends more in it.</summary>
    public double SelfChange => CandidateSelfPerPayment - BaselineSelfPerPayment;

    /// <summary>The self change relative to the baseline's self (0.5 = +50 %); NaN when the baseline never ran it.</summary>
    public double RelativeSelfChange => BaselineSelfPerPayment > 0 ? SelfChange / BaselineSelfPerPayment : double.NaN;
}
