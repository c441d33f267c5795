using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>A case's spans, read once (<see cref="CaseReporter"/>): what the span tables and Zipkin are written from.</summary>
/// <param name="CaseDirectory">The case's folder (cases/CASE).</param>
/// <param name="SpansFile">Every datagram as received (cases/CASE/spans.jsonl), for outputs that read the spans again.</param>
/// <param name="Join">The kind's join of spans to payments.</param>
/// <param name="PaymentsByHash">Payment ids by payment hash (<see cref="PaymentSteps.ByHash"/>).</param>
/// <param name="Steps">Span counts and top-level steps per payment.</param>
/// <param name="Nodes">Per node: spans received, malformed, dropped and (with --trace-check) emitted.</param>
/// <param name="Rows">Per node and operation: count, total, p50, p95, max and share of payment time.</param>
/// <param name="MeanPaymentMs">The mean latency of the measured payments.</param>
/// <param name="MeanBreakdown">The payer's steps per measured payment, largest first.</param>
/// <param name="MalformedSamples">The first payloads that were not valid spans.</param>
internal sealed record CaseSpans(
    string CaseDirectory,
    string SpansFile,
    ITraceJoin Join,
    IReadOnlyDictionary<string, long> PaymentsByHash,
    PaymentSteps Steps,
    IReadOnlyList<TraceNodeStats> Nodes,
    IReadOnlyList<SpanSummaryRow> Rows,
    double MeanPaymentMs,
    IReadOnlyList<(string Operation, int Count, double TotalMs)> MeanBreakdown,
    IReadOnlyList<MalformedPayload> MalformedSamples
);
