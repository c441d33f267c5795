using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>
/// Where a run's topologies live: this Docker host (<see cref="SingleHostPlatform"/>) or a swarm (Swarm/SwarmPlatform).
/// It places each topology and says what a run on it can do; the rest of the harness is the same on both.
/// </summary>
internal interface ITopologyPlatform : IAsyncDisposable
{
    /// <summary>"one host", "swarm": part of what a run's figures mean (times are compared within a platform).</summary>
    string Name { get; }

    /// <summary>Whether the run mines its chain once and every topology starts from a copy (the copy is a folder of this host).</summary>
    bool SeedsChain { get; }

    /// <summary>Where topology <paramref name="replicate"/> of a case goes (both arms of a pair alike).</summary>
    ITopologyHost Place(TopologySpec topology, NetworkOptions options, int replicate);
}
