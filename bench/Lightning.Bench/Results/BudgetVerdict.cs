namespace Lightning.Bench.Results;

/// <summary>A primary verdict of a budgeted run as it ended: decided after <paramref name="Pairs"/> pairs, or still open.</summary>
/// <param name="PairsNeeded">Open only: the pairs in all that would decide it if the ratio and the pairs' spread stay as they are (null: not in sight).</param>
/// <param name="MinutesNeeded">Open only: what the missing pairs would cost at this run's pace.</param>
internal sealed record BudgetVerdict(
    string Cell,
    string Metric,
    string Candidate,
    string Verdict,
    int Pairs,
    int? PairsNeeded = null,
    double? MinutesNeeded = null
);
