using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// probes.csv (with --probe): one row per call of the responsiveness probe in every case: the node, the invocation it
/// started in (0: between invocations), when, how long the node took to answer, or why it did not.
/// </summary>
internal sealed class ProbeCsv : ICaseOutput
{
    public const string FileName = "probes.csv";

    public IReadOnlyList<string> Files => [FileName];

    private static readonly string[] Header = ["case", "node", "invocation", "phase", "start_unix_us", "latency_ms", "error"];

    public void Write(CaseOutputContext context)
    {
        var samples = context.Results.Probes;
        if (samples.Count == 0)
        {
            return;
        }
        var path = Path.Combine(context.RunDirectory, FileName);
        var exists = File.Exists(path);
        using var writer = new StreamWriter(path, append: true, new UTF8Encoding(false));
        if (!exists)
        {
            writer.WriteLine(string.Join(',', Header));
        }
        foreach (var s in samples.OrderBy(s => s.StartUnixMicros))
        {
            writer.WriteLine(string.Join(',',
                PaymentCsv.Field(context.Results.CaseKey),
                PaymentCsv.Field(s.Node),
                s.Invocation.ToString(CultureInfo.InvariantCulture),
                s.Invocation == 0 ? "between" : s.Measured ? "measured" : "warmup",
                s.StartUnixMicros.ToString(CultureInfo.InvariantCulture),
                s.LatencyMs.ToString("0.###", CultureInfo.InvariantCulture),
                PaymentCsv.Field(s.Error ?? "")));
        }
    }
}
