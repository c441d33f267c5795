namespace Lightning.Bench.Results;

/// <summary>
/// The verdict words --fail-on takes: a primary verdict with one of them fails the job (exit 3, not 1, which means
/// the harness failed). "changed" is slower or faster; "unknown" is a verdict still open when the run ended, or one with
/// no ratio (some topologies' operations all failed, not every pair's candidate's).
/// </summary>
internal static class FailOn
{
    public const string Slower = "slower";
    public const string Faster = "faster";
    public const string Changed = "changed";
    public const string Unknown = "unknown";

    /// <summary>verdicts.json's word for a metric with a mix of zeros (some topologies' operations all failed): undecided, so "unknown" trips on it.</summary>
    public const string NoRatio = "no ratio";

    public static IReadOnlyList<string> All { get; } = [Slower, Faster, Changed, Unknown];

    /// <summary>Whether a verdict word (verdicts.json's) is one <paramref name="failOn"/> asks to fail on.</summary>
    public static bool Trips(IReadOnlyList<string> failOn, string verdict) =>
        failOn.Any(f =>
            f switch
            {
                Changed => verdict is Slower or Faster,
                Unknown => verdict is Unknown or NoRatio,
                _ => f == verdict,
            }
        );
}
