namespace Lightning.Bench.Soak;

/// <summary>
/// What <see cref="SoakReport"/> found in a soak's files, computed once for the report, soak.json and the console.
/// </summary>
/// <param name="Windows">Rows of soak.csv.</param>
/// <param name="WarmUpSeconds">The start of the soak the trends leave out.</param>
/// <param name="Figures">The whole soak's figures by budget metric (p50, p95, p99, rss, cpu-per-payment, pps, failures), NaN where unknown.</param>
internal sealed record SoakFindings(
    int Windows,
    double WarmUpSeconds,
    IReadOnlyList<SoakSeries> Series,
    IReadOnlyList<SoakTrend> Trends,
    IReadOnlyDictionary<string, double> Figures,
    IReadOnlyList<SoakBudgetResult> Budgets
)
{
    public bool BudgetsHeld => Budgets.All(b => b.Holds);
}
