namespace Lightning.Bench.Soak;

/// <summary>One budget's outcome.</summary>
internal sealed record SoakBudgetResult(string Budget, string Meaning, double Value, string Unit, bool Holds);
