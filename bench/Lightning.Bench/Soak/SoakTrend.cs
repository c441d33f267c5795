using Lightning.Bench.Statistics;

namespace Lightning.Bench.Soak;

/// <summary>One trend of the report: the series, its unit of x, and the estimate.</summary>
internal sealed record SoakTrend(string Series, string Per, TrendEstimate Estimate);
