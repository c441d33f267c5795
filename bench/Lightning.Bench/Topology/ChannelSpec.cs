namespace Lightning.Bench.Topology;

/// <summary>A channel funded by <see cref="From"/> towards <see cref="To"/>, so all capacity starts on the funder's side.</summary>
internal sealed record ChannelSpec(string From, string To, long CapacitySat);
