namespace Lightning.Bench.NodeKinds;

/// <summary>Why a node call failed, as far as the harness acts on it.</summary>
internal enum NodeCallFailure
{
    /// <summary>The node answered with an error (no route, not enough funds, ...).</summary>
    Refused,

    /// <summary>The node does not know the call or its parameters (an older or newer build): asking again cannot help.</summary>
    Unsupported,

    /// <summary>The node's answer did not parse, or lacked what the call returns.</summary>
    BadAnswer,

    /// <summary>The connection to the node was lost or refused: the node may have died.</summary>
    ConnectionLost,

    /// <summary>The node did not answer within the operation's limit (--operation-timeout): the call was given up.</summary>
    NoAnswer,
}
