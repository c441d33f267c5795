namespace Lightning.Bench.Topology;

/// <summary>A Core Lightning node of a topology: its name (also its compose service and host name) and image.</summary>
public sealed record NodeSpec(string Name, string Image);
