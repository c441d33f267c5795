namespace Lightning.Bench.Results;

/// <summary>A run's profiling in its manifest: how it sampled and each case's profiles, so --compare and readers find them.</summary>
/// <param name="Skipped">Why --profile-if-available ran without profiles (then there are none), or null.</param>
internal sealed record ProfilingRecord(
    int FrequencyHz,
    string CallGraph,
    string PerfVersion,
    string? Skipped,
    IReadOnlyList<CaseProfiles> Cases
);

/// <summary>One case's profiles (one per Lightning node), or why it has none.</summary>
internal sealed record CaseProfiles(
    string CaseKey,
    IReadOnlyDictionary<string, string> Parameters,
    IReadOnlyList<ProfileRecord> Profiles,
    string? Problem
)
{
    /// <summary>
    /// The case's identity, read from its parameters when first asked (not written: the parameters are; a soak's
    /// profile windows carry parameters that are no case's, such as StartSeconds=12.0).
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public CaseId Id => field ??= CaseId.Of(Parameters);
}
