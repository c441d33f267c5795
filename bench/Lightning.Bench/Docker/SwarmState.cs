namespace Lightning.Bench.Docker;

/// <summary>What the engine says about its part in a swarm: its node's id and state ("inactive", "active", "pending",
/// "error", "locked"), whether it is a manager (only a manager creates services and secrets), and the swarm's own error.</summary>
internal sealed record SwarmState(string NodeId, string LocalNodeState, bool IsManager, string? Error)
{
    public bool IsActive => LocalNodeState == "active";
}
