namespace Lightning.Bench.Swarm.Relay;

/// <summary>What was wrong with bytes read from the network; each is counted, and the connection is reset.</summary>
internal enum RelayProblem
{
    /// <summary>A length above the frame limit (or zero).</summary>
    Oversized,

    /// <summary>The connection ended inside a frame.</summary>
    Truncated,

    /// <summary>A type byte the protocol does not define.</summary>
    UnknownType,

    /// <summary>A frame whose body does not parse as its type says (a field cut short, bytes left over, bad UTF-8).</summary>
    Malformed,

    /// <summary>A frame that is valid but not expected here (a span sent to the agent, a second Hello).</summary>
    Unexpected,
}
