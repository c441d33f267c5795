namespace Lightning.Bench.Swarm;

/// <summary>side-by-side.json: the shares of a side-by-side run, where each ran and what the run gained.</summary>
internal sealed record SideBySideRecord(
    string RunId,
    string Scenario,
    int Seed,
    DateTimeOffset Started,
    DateTimeOffset Ended,
    int Hosts,
    int Pairs,
    double Minutes,
    double PairsPerMinute,
    bool Interrupted,
    IReadOnlyList<SideBySideShare> Shares
);
