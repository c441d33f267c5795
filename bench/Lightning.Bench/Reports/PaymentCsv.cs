using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// payments.csv: one row per operation of every case (a payment, for the pay workload), measured and warmup alike (the
/// phase column says which): what the node answered (outcome, error) and whether that is what the workload asks (expected).
/// </summary>
internal sealed class PaymentCsv : ICaseOutput
{
    public const string FileName = "payments.csv";

    public IReadOnlyList<string> Files => [FileName];

    public void Write(CaseOutputContext context) =>
        Append(Path.Combine(context.RunDirectory, FileName), context.Results.Records);

    private static readonly string[] Header =
    [
        "case",
        "invocation",
        "phase",
        "payment_id",
        "payer",
        "payee",
        "start_utc",
        "start_unix_us",
        "end_unix_us",
        "latency_ms",
        "invoice_ms",
        "pay_ms",
        "payment_hash",
        "outcome",
        "error",
        "spans",
        "span_breakdown_ms",
        "expected",
        "parts",
        "failed_parts",
        "amount_msat",
        "fee_msat",
        "destinations",
    ];

    public static void Append(string path, IEnumerable<OperationRecord> records)
    {
        var exists = File.Exists(path);
        using var writer = new StreamWriter(path, append: true, new UTF8Encoding(false));
        if (!exists)
        {
            writer.WriteLine(string.Join(',', Header));
        }
        foreach (var r in records.OrderBy(r => r.PaymentId))
        {
            writer.WriteLine(
                string.Join(
                    ',',
                    Field(r.Case),
                    r.Invocation.ToString(CultureInfo.InvariantCulture),
                    r.Measured ? "measured" : "warmup",
                    r.PaymentId.ToString(CultureInfo.InvariantCulture),
                    Field(r.Payer),
                    Field(r.Payee),
                    r.Start.ToString("O", CultureInfo.InvariantCulture),
                    r.StartUnixMicros.ToString(CultureInfo.InvariantCulture),
                    r.EndUnixMicros.ToString(CultureInfo.InvariantCulture),
                    r.LatencyMs.ToString("0.###", CultureInfo.InvariantCulture),
                    r.InvoiceMs.ToString("0.###", CultureInfo.InvariantCulture),
                    r.PayMs.ToString("0.###", CultureInfo.InvariantCulture),
                    Field(r.PaymentHash ?? ""),
                    r.Outcome == OperationOutcome.Succeeded ? "succeeded" : "failed",
                    Field(r.Error ?? ""),
                    r.SpanCount.ToString(CultureInfo.InvariantCulture),
                    Field(r.SpanBreakdown),
                    r.AsExpected ? "true" : "false",
                    r.Parts?.ToString(CultureInfo.InvariantCulture) ?? "",
                    r.FailedParts?.ToString(CultureInfo.InvariantCulture) ?? "",
                    r.AmountMsat?.ToString(CultureInfo.InvariantCulture) ?? "",
                    r.FeeMsat?.ToString(CultureInfo.InvariantCulture) ?? "",
                    r.Destinations ?? ""
                )
            );
        }
    }

    public static string Field(string value) =>
        value.IndexOfAny([',', '"', '\n', '\r']) >= 0
            ? $"\"{value.Replace("\"", "\"\"", StringComparison.Ordinal)}\""
            : value;
}
