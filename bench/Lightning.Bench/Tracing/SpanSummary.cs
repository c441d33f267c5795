using Lightning.Bench.Reporting;

namespace Lightning.Bench.Tracing;

/// <summary>Per node and operation: count, total, p50, p95, max and share of payment time, over a time window.</summary>
public static class SpanSummary
{
    public static IReadOnlyList<SpanSummaryRow> Summarize(IEnumerable<Span> spans, long windowStartMicros, long windowEndMicros, double totalPaymentMs) =>
        spans
            .Where(s => s.TimestampMicros >= windowStartMicros && s.EndMicros <= windowEndMicros)
            .GroupBy(s => (s.Node, s.Operation))
            .Select(g =>
            {
                var durations = g.Select(s => s.DurationMicros / 1000.0).Order().ToList();
                var total = durations.Sum();
                return new SpanSummaryRow(g.Key.Node, g.Key.Operation, durations.Count, total,
                    CaseFigures.Percentile(durations, 0.5), CaseFigures.Percentile(durations, 0.95), durations[^1],
                    totalPaymentMs > 0 ? 100 * total / totalPaymentMs : double.NaN);
            })
            .OrderBy(r => r.Node, StringComparer.Ordinal)
            .ThenByDescending(r => r.TotalMs)
            .ToList();
}
