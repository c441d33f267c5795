using Lightning.Bench.Tracing;
using static Lightning.Bench.Reports.CsvTable;

namespace Lightning.Bench.Reports;

/// <summary>spans.csv: one row per span of every case, in the order they were received, written as the spans are read.</summary>
internal sealed class SpansCsv : ISpanOutput
{
    public const string FileName = "spans.csv";

    public IReadOnlyList<string> Files => [FileName];

    public ISpanWriter Open(string runDirectory, string caseKey, ITraceJoin join) =>
        new Writer(Path.Combine(runDirectory, FileName), caseKey, join);

    /// <summary>The rows of one case, appended to <paramref name="path"/>.</summary>
    public sealed class Writer(string path, string caseKey, ITraceJoin join) : ISpanWriter
    {
        private readonly StreamWriter writer = Append(
            path,
            "case,node,name,operation,start_unix_us,duration_us,payment_id,id,parent_id,trace_id"
        );

        public void Write(Span span, long? paymentId) =>
            writer.WriteLine(
                string.Join(
                    ',',
                    PaymentCsv.Field(caseKey),
                    PaymentCsv.Field(span.Node),
                    PaymentCsv.Field(span.Name),
                    PaymentCsv.Field(join.OperationOf(span)),
                    Invariant(span.TimestampMicros),
                    Invariant(span.DurationMicros),
                    paymentId is null ? "" : Invariant(paymentId.Value),
                    PaymentCsv.Field(span.Id),
                    PaymentCsv.Field(span.ParentId ?? ""),
                    PaymentCsv.Field(span.TraceId)
                )
            );

        public void Dispose() => writer.Dispose();
    }
}
