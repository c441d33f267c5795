namespace Lightning.Bench.Swarm.Relay;

/// <summary>A node to profile on the agent's host: its name and the host pid of its container's first process.</summary>
internal sealed record ProfileTarget(string Node, int Pid);
