using System.Text;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>
/// span-summary.md: per case, what each node sent (received, malformed, dropped, lost), the payer's steps per payment and
/// each node's heaviest operations; <see cref="BuildStepsTable"/> appends the steps by build at the end of the run.
/// </summary>
internal sealed class SpanSummaryMarkdown : ICaseOutput
{
    public const string FileName = "span-summary.md";

    private const int TopRows = 15;

    public IReadOnlyList<string> Files => [FileName];

    public void Write(CaseOutputContext context)
    {
        if (context.Spans is { } spans)
        {
            Append(
                Path.Combine(context.RunDirectory, FileName),
                context.Results.CaseKey,
                spans.Nodes,
                spans.Rows,
                spans.MeanPaymentMs,
                spans.MeanBreakdown
            );
        }
    }

    private static void Append(
        string path,
        string caseKey,
        IReadOnlyList<TraceNodeStats> stats,
        IReadOnlyList<SpanSummaryRow> rows,
        double meanPaymentMs,
        IReadOnlyList<(string Operation, int Count, double TotalMs)> meanBreakdown
    )
    {
        var text = new StringBuilder();
        if (!File.Exists(path))
        {
            text.AppendLine("# Where the time of a payment goes");
            text.AppendLine();
            text.AppendLine(
                "Spans each node sent over its trace socket during the measured iterations. `share` is total span time ÷ total payment time;"
            );
            text.AppendLine("nested spans overlap their parents, so shares do not add up to 100 %.");
            text.AppendLine();
        }
        text.AppendLine($"## {caseKey}");
        text.AppendLine();
        text.AppendLine("| node | spans received | malformed | dropped by harness | lost by node |");
        text.AppendLine("|---|---:|---:|---:|---|");
        foreach (var s in stats)
        {
            var lost =
                s.Received == 0 ? "no spans: the image may predate Core Lightning v26.06's trace socket"
                : s.Lost is { } n ? $"{n} of {s.Emitted} (trace-check)"
                : "not reported by the node (see --trace-check)";
            text.AppendLine($"| {s.Node} | {s.Received} | {s.Malformed} | {s.DroppedByHarness} | {lost} |");
        }
        text.AppendLine();
        if (meanBreakdown.Count > 0)
        {
            text.AppendLine(
                $"Mean payment {meanPaymentMs:0.0} ms; its steps on the payer (joined by JSON-RPC id), mean per payment:"
            );
            text.AppendLine();
            text.AppendLine("| step | calls | ms | share |");
            text.AppendLine("|---|---:|---:|---:|");
            foreach (var (operation, count, totalMs) in meanBreakdown)
            {
                text.AppendLine(
                    FormattableString.Invariant(
                        $"| {operation} | {count} | {totalMs:0.00} | {100 * totalMs / meanPaymentMs:0.0} % |"
                    )
                );
            }
            text.AppendLine();
        }
        if (rows.Count > 0)
        {
            text.AppendLine("| node | operation | count | total ms | p50 ms | p95 ms | max ms | share |");
            text.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|");
            foreach (var r in rows.GroupBy(r => r.Node).SelectMany(g => g.Take(TopRows)))
            {
                text.AppendLine(
                    FormattableString.Invariant(
                        $"| {r.Node} | {r.Operation} | {r.Count} | {r.TotalMs:0.0} | {r.P50Ms:0.000} | {r.P95Ms:0.000} | {r.MaxMs:0.000} | {r.SharePercent:0.0} % |"
                    )
                );
            }
            text.AppendLine();
        }
        File.AppendAllText(path, text.ToString());
    }
}
