namespace Lightning.Bench.Scenarios;

/// <summary>A scenario the user can name: its benchmark class and the parameters it sweeps.</summary>
internal sealed record ScenarioInfo(string Name, Type BenchmarkType, string Description, IReadOnlyList<ScenarioParameter> Parameters);
