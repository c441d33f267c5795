namespace Lightning.Bench.Results;

/// <summary>What a budgeted run (--max-time) did: its rounds, why it stopped, each primary verdict.</summary>
internal sealed record BudgetReport(
    double BudgetSeconds,
    IReadOnlyList<BudgetRound> Rounds,
    string StoppedBecause,
    IReadOnlyList<BudgetVerdict> Verdicts
)
{
    public const string Method =
        "Lai's confidence sequence (normal mixture, g = 2) on the pairs' log ratios, valid under looking after every pair";
}
