using Lightning.Bench.Options;

namespace Lightning.Bench.Soak;

/// <summary>What a soak knows at its end beyond its CSV files.</summary>
internal sealed record SoakFacts(
    string Scenario,
    string Limit,
    TimeSpan Elapsed,
    long Succeeded,
    long Failed,
    LatencyHistogram Latency,
    IReadOnlyDictionary<string, double>? IdleCpuNsPerSecond,
    IReadOnlyList<SoakBudget> Budgets,
    double ThresholdPercent,
    string? StoppedBy,
    TimeSpan SampleInterval
);
