using Lightning.Bench.Docker;

namespace Lightning.Bench.Swarm;

/// <summary>The engine the harness talks to, as a swarm's manager: its node, and the swarm's nodes that may run tasks.</summary>
internal sealed record SwarmManager(SwarmNode Node, IReadOnlyList<SwarmNode> Hosts)
{
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
            throw new SwarmUnavailableException($"{where} is not in a swarm: make it a manager with 'docker swarm init' (one host; 'docker swarm join' others to it), or run on a manager of your swarm");
        }
        if (!state.IsActive)
        {
            throw new SwarmUnavailableException($"{where} is in a swarm that is {state.LocalNodeState}{(state.Error is { } error ? $" ({error})" : "")}: "
                + (state.LocalNodeState == "locked" ? "unlock it with 'docker swarm unlock'" : "see 'docker info', or leave it with 'docker swarm leave' and 'docker swarm init' again"));
        }
        if (!state.IsManager)
        {
            throw new SwarmUnavailableException($"{where} is a swarm worker, not a manager: run on a manager ('docker node ls' there lists the swarm's hosts)");
        }
        var nodes = await engine.Swarm.ListNodesAsync(ct);
        var self = nodes.FirstOrDefault(n => n.Id == state.NodeId)
            ?? throw new SwarmUnavailableException($"{where} is a manager, but its node {state.NodeId} is not in the swarm's node list: see 'docker node ls'");
        var hosts = nodes.Where(n => n.Schedulable).OrderBy(n => n.Hostname, StringComparer.Ordinal).ToList();
        if (hosts.Count == 0)
        {
            throw new SwarmUnavailableException($"no host of the swarm may run tasks (none is ready and active): see 'docker node ls', and 'docker node update --availability active HOST'");
        }
        return new SwarmManager(self, hosts);
    }

    /// <summary>The swarm as one of its hosts (--swarm-host): the agents, the image check and every topology there; one line when it has no such host.</summary>
    public SwarmManager Only(string host) =>
        Hosts.FirstOrDefault(h => h.Hostname == host) is { } only
            ? this with { Hosts = [only] }
            : throw new SwarmUnavailableException($"--swarm-host {host}: the swarm has no host of that name that may run tasks; its hosts are {string.Join(", ", Hosts.Select(h => h.Hostname))} ('docker node ls')");
}
