using Lightning.Bench.Results;

namespace Lightning.Bench.Soak;

/// <summary>soak-nodes.csv: one row per node per window, with its CPU, memory, storage writes, database size, open files and processes.</summary>
internal sealed class SoakNodesCsv(string directory)
    : SoakCsvWriter(
        Path.Combine(directory, FileName),
        "elapsed_s,payments_total,node,cpu_percent,cpu_ms_per_payment,rss_mb,memory_mb,peak_mb,written_mb,data_mb,open_files,processes"
    )
{
    public const string FileName = "soak-nodes.csv";

    /// <summary>
    /// <paramref name="node"/>'s resources at the window that closed <paramref name="seconds"/> into the soak; its CPU
    /// over the window (<paramref name="cpuPercent"/>, <paramref name="cpuMsPerPayment"/>) is NaN, written empty, when unknown.
    /// </summary>
    public void Write(
        double seconds,
        long paymentsTotal,
        string node,
        double cpuPercent,
        double cpuMsPerPayment,
        NodeResourceSample sample
    ) =>
        WriteRow(
            Number(seconds),
            paymentsTotal,
            node,
            Number(cpuPercent),
            Number(cpuMsPerPayment),
            Number(sample.RssBytes / 1048576.0),
            Number(sample.MemoryBytes / 1048576.0),
            Number(sample.PeakBytes / 1048576.0),
            Number(sample.WrittenBytes / 1048576.0),
            Number(sample.DataBytes / 1048576.0),
            sample.OpenFiles,
            sample.Processes
        );
}
