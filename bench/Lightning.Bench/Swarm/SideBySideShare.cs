namespace Lightning.Bench.Swarm;

/// <summary>One share: its host, its topology indices, how it ended, its pairs and its run's folder (relative).</summary>
internal sealed record SideBySideShare(
    int Number,
    string Host,
    int FirstTopology,
    int LastTopology,
    int ExitCode,
    int Pairs,
    string? RunFolder,
    string? Problem,
    double Minutes
);
