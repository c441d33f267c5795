using Lightning.Bench.Results;
using Lightning.Bench.Tracing;
using static Lightning.Bench.Reports.CsvTable;

namespace Lightning.Bench.Reports;

/// <summary>payment-spans.csv: per payment of every case with spans, its steps per node (count and total time).</summary>
internal sealed class PaymentSpansCsv : ICaseOutput
{
    public const string FileName = "payment-spans.csv";

    public IReadOnlyList<string> Files => [FileName];

    public void Write(CaseOutputContext context)
    {
        if (context.Spans is { } spans)
        {
            Append(
                Path.Combine(context.RunDirectory, FileName),
                context.Results.CaseKey,
                context.Results.Records,
                spans.Steps
            );
        }
    }

    public static void Append(string path, string caseKey, IEnumerable<OperationRecord> payments, PaymentSteps steps)
    {
        using var writer = CsvTable.Append(path, "case,payment_id,phase,node,operation,count,total_ms");
        foreach (var payment in payments.OrderBy(p => p.PaymentId))
        {
            foreach (var node in steps.NodesOf(payment.PaymentId))
            {
                foreach (var (operation, count, totalMs) in steps.Breakdown(payment.PaymentId, node))
                {
                    writer.WriteLine(
                        string.Join(
                            ',',
                            PaymentCsv.Field(caseKey),
                            Invariant(payment.PaymentId),
                            payment.Measured ? "measured" : "warmup",
                            PaymentCsv.Field(node),
                            PaymentCsv.Field(operation),
                            Invariant(count),
                            Ms(totalMs)
                        )
                    );
                }
            }
        }
    }
}
