namespace Lightning.Bench.Results;

/// <summary>One round of a budgeted run: the topology pairs every case had after it, the minutes spent and the verdicts still open.</summary>
/// <param name="Iterations">The measured invocations per topology of the round's cases, by Concurrency.</param>
/// <param name="Pairs">The most pairs a case had after the round (<c>PairsByCell</c> has each case's).</param>
internal sealed record BudgetRound(
    int Round,
    int Pairs,
    double ElapsedSeconds,
    int Open,
    IReadOnlyDictionary<int, int>? Iterations = null
)
{
    /// <summary>The cells the round measured: all in the first, then the open ones, each by its share of the time.</summary>
    public IReadOnlyList<string> Cells { get; init; } = [];

    /// <summary>The pairs each cell had after the round, and the minutes its topologies took so far.</summary>
    public IReadOnlyList<CellSpend> Spent { get; init; } = [];

    public int PairsOf(string cell) => Spent.FirstOrDefault(s => s.Cell == cell)?.Pairs ?? Pairs;
}
