namespace Lightning.Bench.Swarm.Relay;

/// <summary>One frame as read from the wire: its type and its body (everything after the type byte).</summary>
internal readonly record struct RelayFrame(RelayFrameType Type, byte[] Body);
