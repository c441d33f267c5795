namespace Lightning.Bench.Scenarios;

/// <summary>The Build parameter's value: the baseline build (the first given) comes first in the run and in the table.</summary>
public sealed record BuildName(int Index, string Name) : OrderedName(Index, Name);
