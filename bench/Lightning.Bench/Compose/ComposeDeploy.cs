namespace Lightning.Bench.Compose;

/// <summary>A service's `deploy` section (swarm stack files only): how many tasks, where, when to restart, service labels.</summary>
internal sealed class ComposeDeploy
{
    /// <summary>"replicated" (one task) or "global" (one task on every host: the agent).</summary>
    public string? Mode { get; set; }

    public int? Replicas { get; set; }

    /// <summary>"dnsrr": a service's name and aliases resolve to its tasks' own addresses, not a virtual IP balanced by the kernel's IPVS.</summary>
    public string? EndpointMode { get; set; }

    /// <summary>Labels of the swarm service itself (the service-level `labels` go on its containers).</summary>
    public Dictionary<string, string>? Labels { get; set; }

    public ComposeRestartPolicy? RestartPolicy { get; set; }

    public ComposePlacement? Placement { get; set; }
}
