namespace Lightning.Bench.Statistics;

/// <summary>The unbiased sample variance (n − 1), the one place the harness computes it.</summary>
internal static class SampleVariance
{
    /// <summary>NaN with fewer than two values.</summary>
    public static double Of(IReadOnlyList<double> values)
    {
        if (values.Count < 2)
        {
            return double.NaN;
        }
        var mean = values.Average();
        return values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1);
    }

    public static double StandardDeviation(IReadOnlyList<double> values) => Math.Sqrt(Of(values));

    /// <summary>Welch–Satterthwaite degrees of freedom of a difference of two means, from each mean's variance and sample size.</summary>
    public static double WelchDegreesOfFreedom(
        double varianceOfMeanX,
        int countX,
        double varianceOfMeanY,
        int countY
    ) =>
        (varianceOfMeanX + varianceOfMeanY)
        * (varianceOfMeanX + varianceOfMeanY)
        / (varianceOfMeanX * varianceOfMeanX / (countX - 1) + varianceOfMeanY * varianceOfMeanY / (countY - 1));
}
