namespace Lightning.Bench.Cli;

/// <summary>A swept parameter: its [Params] name, the option that sets it, and what it means.</summary>
public sealed record ScenarioParameter(string Name, string Option, string Description, Func<HarnessOptions, IReadOnlyList<int>> Values);
