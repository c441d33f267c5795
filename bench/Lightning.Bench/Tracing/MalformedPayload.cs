namespace Lightning.Bench.Tracing;

internal sealed record MalformedPayload(string Node, long ReceivedUnixMicros, string Problem, string Raw);
