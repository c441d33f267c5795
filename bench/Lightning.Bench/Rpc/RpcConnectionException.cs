namespace Lightning.Bench.Rpc;

public sealed class RpcConnectionException(string message, Exception? inner = null) : Exception(message, inner);
