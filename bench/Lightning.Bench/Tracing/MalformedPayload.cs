namespace Lightning.Bench.Tracing;

public sealed record MalformedPayload(string Node, long ReceivedUnixMicros, string Problem, string Raw);
