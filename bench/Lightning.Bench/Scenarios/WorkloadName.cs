namespace Lightning.Bench.Scenarios;

/// <summary>The Workload parameter's value (pay, fail-at-payee, ...), in command-line order.</summary>
public sealed record WorkloadName(int Index, string Name) : OrderedName(Index, Name);
