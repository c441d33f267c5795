using Perfolizer.Mathematics.SignificanceTesting.Base;
using Perfolizer.Mathematics.SignificanceTesting;
using Perfolizer.Metrology;
using Perfolizer;

namespace Lightning.Bench.Statistics;

/// <summary>A case against the same case on the baseline build: ratio of means and whether the gap exceeds the noise.</summary>
/// <param name="PValue">Welch's two-sided t-test (Perfolizer's) over the iteration times of both cases; NaN with fewer than two each.</param>
public sealed record BuildComparison(double Ratio, double PValue)
{
    public const double SignificanceLevel = 0.05;

    public bool Significant => PValue < SignificanceLevel;

    public static BuildComparison Compare(IReadOnlyList<double> iterations, IReadOnlyList<double> baselineIterations) =>
        new(iterations.Average() / baselineIterations.Average(), WelchPValue(iterations, baselineIterations));

    public static double WelchPValue(IReadOnlyList<double> x, IReadOnlyList<double> y) =>
        x.Count < 2 || y.Count < 2
            ? double.NaN
            : WelchTest.Instance.GetPValue(new Sample(x.ToArray()), new Sample(y.ToArray()), AlternativeHypothesis.TwoSides, Threshold.Zero);

    public string Verdict => double.IsNaN(PValue)
        ? "too few iterations"
        : FormattableString.Invariant($"{(Significant ? "yes" : "no")} (p={PValue:0.###})");
}
