namespace Lightning.Bench.Results;

/// <summary>
/// One call of the responsiveness probe (--probe): a cheap RPC to one node (its sync state: Core Lightning's getinfo,
/// LND's GetInfo), how long the node took to answer, or why it did not.
/// </summary>
/// <param name="Invocation">The invocation it started in (1-based, warmups first), or 0 between invocations.</param>
/// <param name="Measured">Whether that invocation is measured.</param>
/// <param name="Error">Null when the node answered.</param>
internal sealed record ProbeSample(
    string Node,
    int Invocation,
    bool Measured,
    long StartUnixMicros,
    double LatencyMs,
    string? Error
);
