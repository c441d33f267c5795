namespace Lightning.Bench.Bisection;

/// <summary>
/// What one step found for its commit against GOOD: the verdict word of the metric (slower, faster, same, unknown)
/// with its ratio, interval and detects ≥, or why there is none (<see cref="Skipped"/>: the commit did not build, the
/// workload could not run).
/// </summary>
/// <param name="Folder">The step's folder, relative to the bisection's.</param>
/// <param name="ThresholdPercent">The threshold the verdict was read against, in %.</param>
internal sealed record StepMeasurement(
    string? Verdict,
    double? Ratio,
    double? Low,
    double? High,
    double? DetectsPercent,
    string? Skipped,
    string? Folder = null,
    double? ThresholdPercent = null
)
{
    public static StepMeasurement Skip(string why, string? folder = null) =>
        new(null, null, null, null, null, why, folder);
}
