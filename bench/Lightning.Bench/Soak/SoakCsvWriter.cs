using System.Globalization;

namespace Lightning.Bench.Soak;

/// <summary>
/// One of a soak's CSV files, written as the soak goes: the header when it opens, rows as windows close, flushed at
/// every window so that a soak cut short keeps every window it closed.
/// </summary>
internal abstract class SoakCsvWriter : IAsyncDisposable
{
    private readonly StreamWriter writer;

    protected SoakCsvWriter(string path, string header)
    {
        writer = new StreamWriter(path);
        writer.WriteLine(header);
    }

    public void Flush() => writer.Flush();

    public ValueTask DisposeAsync() => writer.DisposeAsync();

    protected void WriteRow(params object[] fields) => writer.WriteLine(string.Join(",", fields));

    /// <summary>A figure as the soak's files write it: up to three decimals, empty when unknown (NaN).</summary>
    protected static string Number(double value) =>
        double.IsFinite(value) ? value.ToString("0.###", CultureInfo.InvariantCulture) : "";
}
