namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>Routes a node found: how many parts the amount is split in, and what they pay in fees together.</summary>
internal sealed record RouteAnswer(int Parts, long FeeMsat);
