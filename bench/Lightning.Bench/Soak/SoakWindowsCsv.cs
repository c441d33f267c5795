using Lightning.Bench.Results;

namespace Lightning.Bench.Soak;

/// <summary>soak.csv: one row per window, with its payments, failures, rebalances, throughput, latency and the harness's memory.</summary>
internal sealed class SoakWindowsCsv(string directory)
    : SoakCsvWriter(
        Path.Combine(directory, FileName),
        "elapsed_s,payments_total,payments,failed,rebalances,payments_per_s,mean_ms,p50_ms,p95_ms,p99_ms,harness_rss_mb"
    )
{
    public const string FileName = "soak.csv";

    /// <summary>The window that closed <paramref name="seconds"/> into the soak; latency columns are empty when it had no payment.</summary>
    public void Write(double seconds, SoakWindow window, double paymentsPerSecond, double harnessRssMb)
    {
        var latencies = window.Latencies;
        string Q(double p) => latencies.Count == 0 ? "" : Number(CaseFigures.Percentile(latencies, p));
        WriteRow(
            Number(seconds),
            window.PaymentsTotal,
            latencies.Count,
            window.Failed,
            window.Rebalances,
            Number(paymentsPerSecond),
            latencies.Count == 0 ? "" : Number(latencies.Average()),
            Q(0.5),
            Q(0.95),
            Q(0.99),
            Number(harnessRssMb)
        );
    }
}
