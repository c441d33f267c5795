namespace Lightning.Bench.Swarm.Relay;

/// <summary>Agent mode's command line as given (`Lightning.Bench agent …`), before it is checked into <see cref="AgentSettings"/>.</summary>
internal sealed record AgentOptions
{
    public string? Listen { get; init; }

    public string? TokenFile { get; init; }

    public string? WorkDirectory { get; init; }

    public string ProcRoot { get; init; } = "/proc";

    public string? Owner { get; init; }

    public string? Host { get; init; }

    public int MaxQueuedSpans { get; init; } = AgentSettings.DefaultMaxQueuedSpans;

    public string? PerfImage { get; init; }

    public string? WorkVolume { get; init; }

    public IReadOnlyDictionary<string, string> Labels { get; init; } = new Dictionary<string, string>();

    public bool Help { get; init; }
}
