namespace Lightning.Bench.Results;

/// <summary>One case's figures, machine-readable (summary.json), so two runs compare by command.</summary>
/// <param name="IterationsMs">Every measured invocation's time, for tests between runs.</param>
public sealed record CaseSummary(
    string Case,
    IReadOnlyDictionary<string, string> Parameters,
    double MeanMs,
    double StdDevMs,
    IReadOnlyList<double> IterationsMs,
    int PaymentsPerInvocation,
    double PaymentsPerSecond,
    double P50Ms,
    double P95Ms,
    int Succeeded,
    int Failed,
    bool Completed);
