namespace Lightning.Bench.Tracing;

/// <summary>One datagram as it arrived on a node's trace socket, before any parsing.</summary>
public readonly record struct ReceivedDatagram(string Node, long ReceivedUnixMicros, byte[] Payload);
