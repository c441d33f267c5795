namespace Lightning.Bench.Results;

/// <summary>
/// The verdict words --fail-on takes: a primary verdict with one of them fails the job (exit 3, not 1, which means
/// the harness failed). "changed" is slower or faster; "unknown" is a verdict still open when the run ended.
/// </summary>
internal static class FailOn
{
    public const string Slower = "slower";
    public const string Faster = "faster";
    public const string Changed = "changed";
    public const string Unknown = "unknown";

    public static IReadOnlyList<string> All { get; } = [Slower, Faster, Changed, Unknown];

    /// <summary>Whether a verdict word (verdicts.json's) is one <paramref name="failOn"/> asks to fail on.</summary>
    public static bool Trips(IReadOnlyList<string> failOn, string verdict) =>
        failOn.Any(f =>
            f switch
            {
                Changed => verdict is Slower or Faster,
                _ => f == verdict,
            }
        );
}
