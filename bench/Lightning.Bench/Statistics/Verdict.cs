using Lightning.Bench.Results;

namespace Lightning.Bench.Statistics;

/// <summary>What a ratio's interval says against a practical threshold, in words.</summary>
internal static class Verdict
{
    public const string Slower = "slower";
    public const string Faster = "faster";
    public const string Same = "same";
    public const string Unknown = "unknown: needs more topologies";

    /// <summary>A metric some topology measured as 0 (a call that writes nothing): no ratio to judge.</summary>
    public const string NoRatio = "no ratio: a topology measured 0";

    /// <param name="thresholdPercent">The smallest difference that matters (2 means ±2 %).</param>
    /// <param name="higherIsWorse">True for times and costs (a ratio above 1 is slower), false for throughput.</param>
    public static string Of(RatioInterval interval, double thresholdPercent, bool higherIsWorse)
    {
        if (double.IsNaN(interval.Ratio) && interval.BaselineTopologies > 0 && interval.CandidateTopologies > 0)
        {
            return NoRatio;
        }
        if (!interval.HasInterval)
        {
            return Unknown;
        }
        var up = 1 + thresholdPercent / 100;
        var down = 1 / up;
        var above = interval.Low > up;
        var below = interval.High < down;
        if (interval.Low >= down && interval.High <= up)
        {
            return Same;
        }
        if (above || below)
        {
            return above == higherIsWorse ? Slower : Faster;
        }
        return Unknown;
    }
}
