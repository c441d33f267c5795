using Lightning.Bench.Results;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>One node's cgroup, read by the agent on its host with the readers a single-host run uses.</summary>
/// <param name="Problem">Empty when read; else why not (the figures are then 0).</param>
/// <param name="CpuNanoseconds">From <c>CgroupCpu</c>.</param>
/// <param name="Resources">Memory, storage and processes from <c>NodeResources</c>, when the memory controller was found too.</param>
internal sealed record NodeCostReading(string Node, string Problem, long CpuNanoseconds, NodeResourceSample? Resources);
