using Lightning.Bench.Statistics;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class BuildComparisonTests
{
    [Fact]
    public void P_values_match_r_t_test()
    {
        // Reference values: R's t.test(a, b)$p.value (Welch is its default).
        Assert.Equal(0.0007418750728, BuildComparison.WelchPValue([79.1, 81.2, 88.9, 72.8, 66.9], [118.1, 136.1, 102.3, 109, 121.5]), 9);
        Assert.Equal(0.6441804617, BuildComparison.WelchPValue([1, 2, 3, 4], [1.5, 2.5, 3.5, 4.2]), 9);
    }

    [Fact]
    public void A_build_comparison_says_whether_the_gap_is_beyond_noise()
    {
        var faster = BuildComparison.Compare([50, 52, 51, 49, 50], [80, 82, 79, 81, 80]);
        Assert.True(faster.Significant);
        Assert.Equal(252.0 / 402.0, faster.Ratio, 9);
        Assert.StartsWith("yes (p=", faster.Verdict);
        Assert.StartsWith("no (p=", BuildComparison.Compare([50, 60, 40, 55], [52, 45, 58, 50]).Verdict);
        Assert.Equal("too few iterations", BuildComparison.Compare([50], [52]).Verdict);
    }
}
