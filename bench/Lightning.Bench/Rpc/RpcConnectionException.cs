namespace Lightning.Bench.Rpc;

internal sealed class RpcConnectionException(string message, Exception? inner = null) : Exception(message, inner);
