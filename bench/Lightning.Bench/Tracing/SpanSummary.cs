using Perfolizer.Mathematics.QuantileEstimators;

namespace Lightning.Bench.Tracing;

/// <summary>
/// Per node and operation: count, total, p50, p95, max and share of payment time, over a time window, built span by
/// span. Percentiles come from Greenwald–Khanna summaries (Perfolizer), so memory stays bounded however many spans a
/// case has; below a few thousand spans per operation they are exact sample values.
/// </summary>
internal sealed class SpanSummary(ITraceJoin join, long windowStartMicros, long windowEndMicros, double totalPaymentMs)
{
    /// <summary>Rank error of the percentiles: 0.05 % of the spans of an operation.</summary>
    public const double QuantileEpsilon = 0.0005;

    private readonly Dictionary<(string Node, string Operation), Group> groups = new();

    public void Add(Span span)
    {
        if (span.TimestampMicros < windowStartMicros || span.EndMicros > windowEndMicros)
        {
            return;
        }
        var key = (span.Node, join.OperationOf(span));
        if (!groups.TryGetValue(key, out var group))
        {
            groups[key] = group = new Group();
        }
        group.Add(span.DurationMicros / 1000.0);
    }

    public IReadOnlyList<SpanSummaryRow> Rows() =>
        groups
            .Select(g => new SpanSummaryRow(
                g.Key.Node,
                g.Key.Operation,
                g.Value.Count,
                g.Value.TotalMs,
                g.Value.Quantile(0.5),
                g.Value.Quantile(0.95),
                g.Value.MaxMs,
                totalPaymentMs > 0 ? 100 * g.Value.TotalMs / totalPaymentMs : double.NaN
            ))
            .OrderBy(r => r.Node, StringComparer.Ordinal)
            .ThenByDescending(r => r.TotalMs)
            .ToList();

    /// <summary>Summarizes spans already at hand (tests, small sets).</summary>
    public static IReadOnlyList<SpanSummaryRow> Summarize(
        ITraceJoin join,
        IEnumerable<Span> spans,
        long windowStartMicros,
        long windowEndMicros,
        double totalPaymentMs
    )
    {
        var summary = new SpanSummary(join, windowStartMicros, windowEndMicros, totalPaymentMs);
        foreach (var span in spans)
        {
            summary.Add(span);
        }
        return summary.Rows();
    }

    private sealed class Group
    {
        private readonly GreenwaldKhannaQuantileEstimator quantiles = new(QuantileEpsilon);

        public int Count { get; private set; }

        public double TotalMs { get; private set; }

        public double MaxMs { get; private set; } = double.NegativeInfinity;

        public void Add(double ms)
        {
            Count++;
            TotalMs += ms;
            MaxMs = Math.Max(MaxMs, ms);
            quantiles.Add(ms);
        }

        public double Quantile(double p) => Count == 0 ? double.NaN : quantiles.Quantile(p);
    }
}
