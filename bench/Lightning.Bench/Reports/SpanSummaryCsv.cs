using Lightning.Bench.Tracing;
using static Lightning.Bench.Reports.CsvTable;

namespace Lightning.Bench.Reports;

/// <summary>span-summary.csv: per case, node and operation, the spans' count, total, p50, p95, max and share of payment time.</summary>
internal sealed class SpanSummaryCsv : ICaseOutput
{
    public const string FileName = "span-summary.csv";

    public IReadOnlyList<string> Files => [FileName];

    public void Write(CaseOutputContext context)
    {
        if (context.Spans is { } spans)
        {
            Append(Path.Combine(context.RunDirectory, FileName), context.Results.CaseKey, spans.Rows);
        }
    }

    private static void Append(string path, string caseKey, IEnumerable<SpanSummaryRow> rows)
    {
        using var writer = CsvTable.Append(
            path,
            "case,node,operation,count,total_ms,p50_ms,p95_ms,max_ms,share_percent"
        );
        foreach (var r in rows)
        {
            writer.WriteLine(
                string.Join(
                    ',',
                    PaymentCsv.Field(caseKey),
                    PaymentCsv.Field(r.Node),
                    PaymentCsv.Field(r.Operation),
                    Invariant(r.Count),
                    Ms(r.TotalMs),
                    Ms(r.P50Ms),
                    Ms(r.P95Ms),
                    Ms(r.MaxMs),
                    Ms(r.SharePercent)
                )
            );
        }
    }
}
