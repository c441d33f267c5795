using System.Globalization;
using System.Text;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tracing;

/// <summary>The span tables a run keeps: spans.csv, payment-spans.csv and span-summary.csv (appended case by case).</summary>
public static class TraceFiles
{
    public const string SpansCsvFile = "spans.csv";
    public const string PaymentSpansCsv = "payment-spans.csv";
    public const string SummaryCsv = "span-summary.csv";
    public const string SummaryMarkdown = "span-summary.md";

    /// <summary>spans.csv, one row per span in the order they were received, written as the spans are read.</summary>
    public sealed class SpansCsv : IDisposable
    {
        private readonly StreamWriter writer;
        private readonly string caseKey;
        private readonly ITraceJoin join;

        public SpansCsv(string path, string caseKey, ITraceJoin join)
        {
            writer = Open(path, "case,node,name,operation,start_unix_us,duration_us,payment_id,id,parent_id,trace_id");
            this.caseKey = caseKey;
            this.join = join;
        }

        public void Write(Span s, long? payment) =>
            writer.WriteLine(string.Join(',', PaymentCsv.Field(caseKey), PaymentCsv.Field(s.Node), PaymentCsv.Field(s.Name), PaymentCsv.Field(join.OperationOf(s)),
                Invariant(s.TimestampMicros), Invariant(s.DurationMicros), payment is null ? "" : Invariant(payment.Value),
                PaymentCsv.Field(s.Id), PaymentCsv.Field(s.ParentId ?? ""), PaymentCsv.Field(s.TraceId)));

        public void Dispose() => writer.Dispose();
    }

    public static void AppendPaymentSpans(string path, string caseKey, IEnumerable<PaymentRecord> payments, PaymentSteps steps)
    {
        using var writer = Open(path, "case,payment_id,phase,node,operation,count,total_ms");
        foreach (var payment in payments.OrderBy(p => p.PaymentId))
        {
            foreach (var node in steps.NodesOf(payment.PaymentId))
            {
                foreach (var (operation, count, totalMs) in steps.Breakdown(payment.PaymentId, node))
                {
                    writer.WriteLine(string.Join(',', PaymentCsv.Field(caseKey), Invariant(payment.PaymentId), payment.Measured ? "measured" : "warmup",
                        PaymentCsv.Field(node), PaymentCsv.Field(operation), Invariant(count), Ms(totalMs)));
                }
            }
        }
    }

    public static void AppendSummary(string path, string caseKey, IEnumerable<SpanSummaryRow> rows)
    {
        using var writer = Open(path, "case,node,operation,count,total_ms,p50_ms,p95_ms,max_ms,share_percent");
        foreach (var r in rows)
        {
            writer.WriteLine(string.Join(',', PaymentCsv.Field(caseKey), PaymentCsv.Field(r.Node), PaymentCsv.Field(r.Operation), Invariant(r.Count),
                Ms(r.TotalMs), Ms(r.P50Ms), Ms(r.P95Ms), Ms(r.MaxMs), Ms(r.SharePercent)));
        }
    }

    public static void AppendMarkdown(string path, string caseKey, IReadOnlyList<TraceNodeStats> stats, IReadOnlyList<SpanSummaryRow> rows,
        double meanPaymentMs, IReadOnlyList<(string Operation, int Count, double TotalMs)> meanBreakdown, int topRows = 15)
    {
        var text = new StringBuilder();
        if (!File.Exists(path))
        {
            text.AppendLine("# Where the time of a payment goes");
            text.AppendLine();
            text.AppendLine("Spans each node sent over its trace socket during the measured iterations. `share` is total span time ÷ total payment time;");
            text.AppendLine("nested spans overlap their parents, so shares do not add up to 100 %.");
            text.AppendLine();
        }
        text.AppendLine($"## {caseKey}");
        text.AppendLine();
        text.AppendLine("| node | spans received | malformed | dropped by harness | lost by node |");
        text.AppendLine("|---|---:|---:|---:|---|");
        foreach (var s in stats)
        {
            var lost = s.Received == 0 ? "no spans: the image may predate Core Lightning v26.06's trace socket"
                : s.Lost is { } n ? $"{n} of {s.Emitted} (trace-check)"
                : "not reported by the node (see --trace-check)";
            text.AppendLine($"| {s.Node} | {s.Received} | {s.Malformed} | {s.DroppedByHarness} | {lost} |");
        }
        text.AppendLine();
        if (meanBreakdown.Count > 0)
        {
            text.AppendLine($"Mean payment {meanPaymentMs:0.0} ms; its steps on the payer (joined by JSON-RPC id), mean per payment:");
            text.AppendLine();
            text.AppendLine("| step | calls | ms | share |");
            text.AppendLine("|---|---:|---:|---:|");
            foreach (var (operation, count, totalMs) in meanBreakdown)
            {
                text.AppendLine(FormattableString.Invariant($"| {operation} | {count} | {totalMs:0.00} | {100 * totalMs / meanPaymentMs:0.0} % |"));
            }
            text.AppendLine();
        }
        if (rows.Count > 0)
        {
            text.AppendLine("| node | operation | count | total ms | p50 ms | p95 ms | max ms | share |");
            text.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|");
            foreach (var r in rows.GroupBy(r => r.Node).SelectMany(g => g.Take(topRows)))
            {
                text.AppendLine(FormattableString.Invariant(
                    $"| {r.Node} | {r.Operation} | {r.Count} | {r.TotalMs:0.0} | {r.P50Ms:0.000} | {r.P95Ms:0.000} | {r.MaxMs:0.000} | {r.SharePercent:0.0} % |"));
            }
            text.AppendLine();
        }
        File.AppendAllText(path, text.ToString());
    }

    private static StreamWriter Open(string path, string header)
    {
        var exists = File.Exists(path);
        var writer = new StreamWriter(path, append: true, new UTF8Encoding(false));
        if (!exists)
        {
            writer.WriteLine(header);
        }
        return writer;
    }

    private static string Invariant(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Ms(double value) => double.IsNaN(value) ? "" : value.ToString("0.###", CultureInfo.InvariantCulture);
}
