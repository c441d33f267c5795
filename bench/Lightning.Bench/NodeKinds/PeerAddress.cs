namespace Lightning.Bench.NodeKinds;

/// <summary>Host and port where a node accepts peers, as the other nodes of its topology reach it.</summary>
internal sealed record PeerAddress(string Host, int Port);
