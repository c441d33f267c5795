using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The engine the harness talks to, as a swarm's manager: its node, the hosts the run uses (an agent and the image
/// check on each), and among them the hosts its topology pairs go to.
/// </summary>
/// <param name="Hosts">The hosts the run uses: the pairs' hosts and the hosts its placed nodes go to (<see cref="Placing"/>).</param>
internal sealed record SwarmManager(SwarmNode Node, IReadOnlyList<SwarmNode> Hosts)
{
    /// <summary>The hosts topology pairs go to, in turn; by default every host the run uses.</summary>
    public IReadOnlyList<SwarmNode> PairHosts { get; init; } = Hosts;

    /// <summary>Every node of the swarm that may run tasks, whatever the run uses of them.</summary>
    public IReadOnlyList<SwarmNode> Schedulable { get; init; } = Hosts;

    /// <summary>A placement value (--place NODE=VALUE) → the hosts labelled lnbench.placement=VALUE, by name.</summary>
    public IReadOnlyDictionary<string, IReadOnlyList<string>> Placements { get; init; } =
        new Dictionary<string, IReadOnlyList<string>>();

    /// <summary>
    /// The engine's swarm, or one line saying what is wrong and what to do: not in a swarm (`docker swarm init`), a
    /// worker (run on a manager), locked or in error (the swarm's own words), or no node that may run tasks.
    /// </summary>
    public static async Task<SwarmManager> RequireAsync(DockerEngine engine, CancellationToken ct = default)
    {
        var state = await engine.Swarm.GetStateAsync(ct);
        var where = $"the Docker engine at {engine.Host}";
        if (state.LocalNodeState is "inactive" or "")
        {
            throw new SwarmUnavailableException(
                $"{where} is not in a swarm: make it a manager with 'docker swarm init' (one host; 'docker swarm join' others to it), or run on a manager of your swarm"
            );
        }
        if (!state.IsActive)
        {
            throw new SwarmUnavailableException(
                $"{where} is in a swarm that is {state.LocalNodeState}{(state.Error is { } error ? $" ({error})" : "")}: "
                    + (
                        state.LocalNodeState == "locked"
                            ? "unlock it with 'docker swarm unlock'"
                            : "see 'docker info', or leave it with 'docker swarm leave' and 'docker swarm init' again"
                    )
            );
        }
        if (!state.IsManager)
        {
            throw new SwarmUnavailableException(
                $"{where} is a swarm worker, not a manager: run on a manager ('docker node ls' there lists the swarm's hosts)"
            );
        }
        var nodes = await engine.Swarm.ListNodesAsync(ct);
        var self =
            nodes.FirstOrDefault(n => n.Id == state.NodeId)
            ?? throw new SwarmUnavailableException(
                $"{where} is a manager, but its node {state.NodeId} is not in the swarm's node list: see 'docker node ls'"
            );
        var hosts = nodes.Where(n => n.Schedulable).OrderBy(n => n.Hostname, StringComparer.Ordinal).ToList();
        if (hosts.Count == 0)
        {
            throw new SwarmUnavailableException(
                $"no host of the swarm may run tasks (none is ready and active): see 'docker node ls', and 'docker node update --availability active HOST'"
            );
        }
        return new SwarmManager(self, hosts);
    }

    /// <summary>The swarm as one of its hosts (--swarm-host): the agents, the image check and every topology there; one line when it has no such host.</summary>
    public SwarmManager Only(string host) =>
        Schedulable.FirstOrDefault(h => h.Hostname == host) is { } only
            ? this with
            {
                Hosts = [only],
                PairHosts = [only],
            }
            : throw new SwarmUnavailableException(
                $"--swarm-host {host}: the swarm has no host of that name that may run tasks; its hosts are {string.Join(", ", Schedulable.Select(h => h.Hostname))} ('docker node ls')"
            );

    /// <summary>
    /// The run's placed nodes (--place NODE=VALUE) resolved: each value's hosts (labelled lnbench.placement=VALUE) join
    /// the hosts the run uses, and leave the pairs' hosts unless no other host is left for the pairs. One line when no
    /// host carries a value.
    /// </summary>
    public SwarmManager Placing(IEnumerable<string> values)
    {
        var placements = new Dictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        foreach (var value in values.Distinct(StringComparer.Ordinal))
        {
            var labelled = Schedulable
                .Where(h => h.Labels.GetValueOrDefault(StackGenerator.PlacementLabel) == value)
                .ToList();
            if (labelled.Count == 0)
            {
                throw new SwarmUnavailableException(
                    $"--place …={value}: no host of the swarm that may run tasks is labelled {StackGenerator.PlacementLabel}={value}: "
                        + $"label one with 'docker node update --label-add {StackGenerator.PlacementLabel}={value} HOST' (hosts: {string.Join(", ", Schedulable.Select(h => h.Hostname))})"
                );
            }
            placements[value] = labelled.Select(h => h.Hostname).ToList();
        }
        if (placements.Count == 0)
        {
            return this;
        }
        var placed = placements.Values.SelectMany(h => h).ToHashSet(StringComparer.Ordinal);
        var pairs = PairHosts.Where(h => !placed.Contains(h.Hostname)).ToList();
        return this with
        {
            Hosts = Hosts
                .Concat(Schedulable.Where(h => placed.Contains(h.Hostname)))
                .DistinctBy(h => h.Id)
                .OrderBy(h => h.Hostname, StringComparer.Ordinal)
                .ToList(),
            PairHosts = pairs.Count > 0 ? pairs : PairHosts,
            Placements = placements,
        };
    }

    /// <summary>
    /// Where a topology goes: its pair's host (replicates over the pairs' hosts in turn, both arms of a pair on one
    /// host), and each node placed apart (--place NODE=VALUE) on a host labelled with its value, the labelled hosts
    /// taken in turn by replicate too, so both arms of a pair put it on the same host.
    /// </summary>
    public (string Host, IReadOnlyDictionary<string, string> NodeHosts) Place(
        Topology.TopologySpec topology,
        int replicate
    )
    {
        var turn = Math.Max(1, replicate) - 1;
        var nodeHosts = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var node in topology.Nodes)
        {
            if (node.Placement is { } value)
            {
                var hosts =
                    Placements.GetValueOrDefault(value)
                    ?? throw new InvalidOperationException(
                        $"node {node.Name}'s placement {value} was not resolved when the run's swarm started"
                    );
                nodeHosts[node.Name] = hosts[turn % hosts.Count];
            }
        }
        return (PairHosts[turn % PairHosts.Count].Hostname, nodeHosts);
    }
}
