namespace Lightning.Bench.Soak;

/// <summary>What <see cref="SoakReport"/> found: its lines for the console, whether every budget held, the trends and the budgets.</summary>
public sealed record SoakSummary(IReadOnlyList<string> Lines, bool BudgetsHeld, IReadOnlyList<SoakTrend> Trends, IReadOnlyList<SoakBudgetResult> Budgets);
