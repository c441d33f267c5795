namespace Lightning.Bench.NodeKinds;

/// <summary>Host and port where a node accepts peers on the compose network.</summary>
public sealed record PeerAddress(string Host, int Port);
