using System.Net;

namespace Lightning.Bench.Swarm.Relay;

/// <summary>An agent found on the run's overlay: its host (as it says), where it listens, its session.</summary>
internal sealed record AgentAddress(string Host, EndPoint Endpoint, long Session);
