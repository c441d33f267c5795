namespace Lightning.Bench.Soak;

/// <summary>The payments of one sampling window: each successful one's latency, the failures, the rebalances, and the soak's successful payments so far.</summary>
internal sealed record SoakWindow(IReadOnlyList<double> Latencies, long Failed, long Rebalances, long PaymentsTotal);
