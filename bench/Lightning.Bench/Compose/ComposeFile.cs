namespace Lightning.Bench.Compose;

/// <summary>The subset of the compose specification this harness writes; accepted by compose v2 and v1.29.</summary>
internal sealed class ComposeFile
{
    /// <summary>Only in swarm stack files: `docker stack deploy` (Docker 20.10) wants a 3.x version; compose files leave it out.</summary>
    public string? Version { get; set; }

    public string? Name { get; set; }

    public Dictionary<string, ComposeService> Services { get; set; } = new();

    public Dictionary<string, ComposeNetwork>? Networks { get; set; }

    /// <summary>Named volumes (swarm stack files: the run's work volume, made by each host's engine when a task first mounts it).</summary>
    public Dictionary<string, ComposeVolume>? Volumes { get; set; }

    /// <summary>Secrets a stack uses, all external: the run creates them with their values, which never appear in a file.</summary>
    public Dictionary<string, ComposeSecret>? Secrets { get; set; }
}
