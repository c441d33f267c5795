namespace Lightning.Bench.Results;

/// <summary>
/// The harness's own garbage collections inside a case's measured invocations: the runtime stops the harness's threads
/// for them, so they belong to what an invocation measured. BenchmarkDotNet's forced collections between iterations are
/// off (see <c>CaseJob</c>); these are what the payments' allocations cost instead.
/// </summary>
/// <param name="Invocations">Measured invocations.</param>
/// <param name="Collections">Collections (any generation) that ran inside them.</param>
/// <param name="Affected">Invocations with at least one collection.</param>
/// <param name="PauseMsPerInvocation">The pauses' total over the measured invocations, per invocation.</param>
/// <param name="MaxPauseMs">The most one invocation was paused.</param>
internal sealed record HarnessGc(
    int Invocations,
    int Collections,
    int Affected,
    double PauseMsPerInvocation,
    double MaxPauseMs
)
{
    public static HarnessGc? Of(IReadOnlyList<(TimeSpan Paused, int Collections)> invocations) =>
        invocations.Count == 0
            ? null
            : new HarnessGc(
                invocations.Count,
                invocations.Sum(i => i.Collections),
                invocations.Count(i => i.Collections > 0),
                Math.Round(invocations.Sum(i => i.Paused.TotalMilliseconds) / invocations.Count, 3),
                Math.Round(invocations.Max(i => i.Paused.TotalMilliseconds), 3)
            );
}
