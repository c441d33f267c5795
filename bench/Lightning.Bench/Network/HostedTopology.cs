using Lightning.Bench.Tracing;

namespace Lightning.Bench.Network;

/// <summary>A topology's containers once up: how a dead node is described, the watch for deaths, and its span collection (null: none).</summary>
internal sealed record HostedTopology(NodeEvidence Evidence, DeathWatch DeathWatch, ISpanCollection? Traces);
