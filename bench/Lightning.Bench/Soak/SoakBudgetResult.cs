namespace Lightning.Bench.Soak;

/// <summary>One budget's outcome.</summary>
public sealed record SoakBudgetResult(string Budget, string Meaning, double Value, string Unit, bool Holds);
