namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A call to a node that gave no answer the harness can use. Every kind translates its own transport's and parser's
/// errors into this one, so setup, payments and soaks handle every kind alike.
/// </summary>
/// <param name="message">What happened, in the kind's words, naming the node and the call (payments.csv keeps it).</param>
internal sealed class NodeCallException(
    string node,
    string call,
    NodeCallFailure failure,
    string message,
    Exception? inner = null
) : Exception(message, inner)
{
    public string Node { get; } = node;

    /// <summary>The kind's name of the call (Core Lightning: the JSON-RPC method).</summary>
    public string Call { get; } = call;

    public NodeCallFailure Failure { get; } = failure;

    /// <summary>For a payment the node refused: why, where its kind can tell.</summary>
    public PaymentFailure PaymentFailure { get; init; }
}
