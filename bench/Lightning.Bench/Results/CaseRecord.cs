namespace Lightning.Bench.Results;

/// <summary>What the manifest keeps of one benchmark case: its topology's project, nodes and their versions, and times.</summary>
internal sealed record CaseRecord(
    string Case,
    string ComposeProject,
    IReadOnlyDictionary<string, string> NodeImages,
    IReadOnlyDictionary<string, string> NodeVersions,
    DateTimeOffset Started,
    DateTimeOffset? Ended
)
{
    /// <summary>Each node's kind (cln unless a build named another).</summary>
    public IReadOnlyDictionary<string, string> NodeKinds { get; init; } = new Dictionary<string, string>();

    /// <summary>--swarm: the swarm host its stack ran on (null on one host).</summary>
    public string? Host { get; init; }

    /// <summary>--swarm with --place: the nodes that ran apart from <see cref="Host"/>, each with its host (empty otherwise).</summary>
    public IReadOnlyDictionary<string, string> NodeHosts { get; init; } = new Dictionary<string, string>();

    /// <summary>How long the topology took to get ready, step by step (null: it never got there).</summary>
    public SetupTimes? Setup { get; init; }
}
