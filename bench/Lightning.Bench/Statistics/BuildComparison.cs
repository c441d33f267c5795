namespace Lightning.Bench.Statistics;

/// <summary>A case against the same case on the baseline build: ratio of means and whether the gap exceeds the noise.</summary>
/// <param name="PValue">Welch's two-sided t-test over the iteration times of both cases.</param>
public sealed record BuildComparison(double Ratio, double PValue)
{
    public const double SignificanceLevel = 0.05;

    public bool Significant => PValue < SignificanceLevel;

    public static BuildComparison Compare(IReadOnlyList<double> iterations, IReadOnlyList<double> baselineIterations) =>
        new(iterations.Average() / baselineIterations.Average(), WelchTest.PValue(iterations, baselineIterations));

    public string Verdict => double.IsNaN(PValue)
        ? "too few iterations"
        : FormattableString.Invariant($"{(Significant ? "yes" : "no")} (p={PValue:0.###})");
}
