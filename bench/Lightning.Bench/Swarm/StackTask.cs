namespace Lightning.Bench.Swarm;

/// <summary>A running service of a deployed stack: its task, container and host (the swarm node's hostname), and the
/// container's first process as a host pid (what the agent reads the node's cgroups by).</summary>
internal sealed record StackTask(
    string Service,
    string ServiceId,
    string TaskId,
    string ContainerId,
    string NodeId,
    string Host,
    long Pid
);
