namespace Lightning.Bench.Swarm.Relay;

/// <param name="Pid">The host pid of the node container's first process (a swarm task's ContainerStatus.PID).</param>
internal sealed record CostTarget(string Node, int Pid);
