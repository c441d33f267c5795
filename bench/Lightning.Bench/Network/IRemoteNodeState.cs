namespace Lightning.Bench.Network;

/// <summary>
/// Nodes whose containers run on another host (a swarm topology's): this host's engine cannot inspect them, so whether
/// one has died, and its evidence, come from the swarm's manager (its task's state and the service's log).
/// </summary>
internal interface IRemoteNodeState
{
    /// <summary>Whether the node's container runs on another host.</summary>
    bool IsRemote(string node);

    /// <summary>The node's death with its evidence, or null while its task runs.</summary>
    Task<NodeDiedException?> DeathOfAsync(string node, CancellationToken ct = default);
}
