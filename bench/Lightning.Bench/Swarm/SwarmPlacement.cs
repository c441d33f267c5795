namespace Lightning.Bench.Swarm;

/// <summary>Where a `--swarm` run puts a topology: the run's swarm, and the host (a swarm node's hostname) its stack runs on.</summary>
/// <param name="Host">The pair's host: bitcoind and every node not placed apart.</param>
internal sealed record SwarmPlacement(SwarmPlatform Platform, string Host)
{
    /// <summary>Nodes placed apart from <see cref="Host"/> (--place NODE=VALUE) → the host each runs on.</summary>
    public IReadOnlyDictionary<string, string> NodeHosts { get; init; } = new Dictionary<string, string>();

    /// <summary>The host <paramref name="node"/> (or bitcoind) runs on.</summary>
    public string HostOf(string node) => NodeHosts.GetValueOrDefault(node, Host);
}
