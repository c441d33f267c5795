namespace Lightning.Bench.Results;

/// <summary>One step of a topology's setup (containers, chain, nodes, fund, channels, routes) and its seconds.</summary>
public sealed record SetupStep(string Name, double Seconds);
