namespace Lightning.Bench.Reports;

/// <summary>
/// probes.csv (with --probe): one row per call of the responsiveness probe in every case: the node, the invocation it
/// started in (0: between invocations), when, how long the node took to answer, or why it did not.
/// </summary>
internal sealed class ProbeCsv : ICaseOutput
{
    public const string FileName = "probes.csv";

    public IReadOnlyList<string> Files => [FileName];

    public void Write(CaseOutputContext context)
    {
        var samples = context.Results.Probes;
        if (samples.Count == 0)
        {
            return;
        }
        using var writer = CsvTable.Append(
            Path.Combine(context.RunDirectory, FileName),
            "case,node,invocation,phase,start_unix_us,latency_ms,error"
        );
        foreach (var s in samples.OrderBy(s => s.StartUnixMicros))
        {
            writer.WriteLine(
                string.Join(
                    ',',
                    PaymentCsv.Field(context.Results.CaseKey),
                    PaymentCsv.Field(s.Node),
                    CsvTable.Invariant(s.Invocation),
                    s.Invocation == 0 ? "between"
                        : s.Measured ? "measured"
                        : "warmup",
                    CsvTable.Invariant(s.StartUnixMicros),
                    CsvTable.Ms(s.LatencyMs),
                    PaymentCsv.Field(s.Error ?? "")
                )
            );
        }
    }
}
