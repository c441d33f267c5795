namespace Lightning.Bench.Rpc;

/// <summary>An error answer to a JSON-RPC call: the node's code and message, and which node and method.</summary>
internal sealed class JsonRpcException(string node, string method, long code, string rpcMessage)
    : Exception($"{node}: {method} failed with {code}: {rpcMessage}")
{
    public const long MethodNotFound = -32601;
    public const long InvalidParams = -32602;

    public string Node { get; } = node;

    public string Method { get; } = method;

    public long Code { get; } = code;

    public string RpcMessage { get; } = rpcMessage;
}
