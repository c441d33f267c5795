namespace Lightning.Bench.Compose;

/// <summary>The subset of the compose specification this harness writes; accepted by compose v2 and v1.29.</summary>
internal sealed class ComposeFile
{
    public string? Name { get; set; }

    public Dictionary<string, ComposeService> Services { get; set; } = new();

    public Dictionary<string, ComposeNetwork>? Networks { get; set; }
}
