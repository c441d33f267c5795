namespace Lightning.Bench.Tracing;

/// <param name="SharePercent">Total span time ÷ total latency of the case's measured payments; nested spans overlap their parents, so shares do not add up to 100.</param>
internal sealed record SpanSummaryRow(
    string Node,
    string Operation,
    int Count,
    double TotalMs,
    double P50Ms,
    double P95Ms,
    double MaxMs,
    double SharePercent
);
