namespace Lightning.Bench.Swarm.Relay;

/// <param name="Problem">Empty when bound; else why not (the node then sends its spans nowhere, and the harness says so).</param>
/// <param name="KernelBufferBytes">What the kernel granted for SO_RCVBUF on the agent's host.</param>
internal sealed record BoundSocket(string Node, string Problem, int KernelBufferBytes);
