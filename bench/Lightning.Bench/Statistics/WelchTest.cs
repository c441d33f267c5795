namespace Lightning.Bench.Statistics;

/// <summary>
/// Welch's two-sample t-test (unequal variances), two-sided: is the difference of two means larger than their noise?
/// Kept here rather than taken from BenchmarkDotNet's statistics library, whose API changes between versions.
/// </summary>
public static class WelchTest
{
    /// <summary>The two-sided p-value, or NaN when either sample has fewer than two values or neither varies.</summary>
    public static double PValue(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        if (a.Count < 2 || b.Count < 2)
        {
            return double.NaN;
        }
        var (meanA, varA) = MeanVariance(a);
        var (meanB, varB) = MeanVariance(b);
        var seA = varA / a.Count;
        var seB = varB / b.Count;
        var se = seA + seB;
        if (se <= 0)
        {
            return meanA == meanB ? 1 : 0;
        }
        var t = (meanA - meanB) / Math.Sqrt(se);
        var df = se * se / ((seA * seA / (a.Count - 1)) + (seB * seB / (b.Count - 1)));
        // P(|T| > |t|) for Student's t with df degrees of freedom = I_{df/(df+t²)}(df/2, 1/2).
        return RegularizedIncompleteBeta(df / (df + (t * t)), df / 2, 0.5);
    }

    private static (double Mean, double Variance) MeanVariance(IReadOnlyList<double> values)
    {
        var mean = values.Average();
        return (mean, values.Sum(v => (v - mean) * (v - mean)) / (values.Count - 1));
    }

    /// <summary>I_x(a, b) by Lentz's continued fraction (Numerical Recipes, betacf).</summary>
    private static double RegularizedIncompleteBeta(double x, double a, double b)
    {
        if (x <= 0)
        {
            return 0;
        }
        if (x >= 1)
        {
            return 1;
        }
        var front = Math.Exp(LogGamma(a + b) - LogGamma(a) - LogGamma(b) + (a * Math.Log(x)) + (b * Math.Log(1 - x)));
        return x < (a + 1) / (a + b + 2)
            ? front * ContinuedFraction(x, a, b) / a
            : 1 - (front * ContinuedFraction(1 - x, b, a) / b);
    }

    private static double ContinuedFraction(double x, double a, double b)
    {
        const double tiny = 1e-300;
        double c = 1, d = 1 - ((a + b) * x / (a + 1));
        d = 1 / (Math.Abs(d) < tiny ? tiny : d);
        var h = d;
        for (var m = 1; m <= 300; m++)
        {
            var m2 = 2 * m;
            var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + (aa * d);
            d = 1 / (Math.Abs(d) < tiny ? tiny : d);
            c = 1 + (aa / c);
            c = Math.Abs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + (aa * d);
            d = 1 / (Math.Abs(d) < tiny ? tiny : d);
            c = 1 + (aa / c);
            c = Math.Abs(c) < tiny ? tiny : c;
            var delta = d * c;
            h *= delta;
            if (Math.Abs(delta - 1) < 1e-12)
            {
                break;
            }
        }
        return h;
    }

    /// <summary>Lanczos approximation of ln Γ(x) for x &gt; 0.</summary>
    private static double LogGamma(double x)
    {
        double[] g = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
        var y = x;
        var tmp = x + 5.5;
        tmp -= (x + 0.5) * Math.Log(tmp);
        var series = 1.000000000190015;
        foreach (var coefficient in g)
        {
            series += coefficient / ++y;
        }
        return -tmp + Math.Log(2.5066282746310005 * series / x);
    }
}
