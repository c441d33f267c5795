using System.Globalization;
using System.Text;

namespace Lightning.Bench.Reports;

/// <summary>What the run's CSV tables share: appended case by case (a header when the file is new), invariant numbers, quoted fields.</summary>
internal static class CsvTable
{
    /// <summary>Opens <paramref name="path"/> to append rows, writing <paramref name="header"/> first when the file is new.</summary>
    public static StreamWriter Append(string path, string header)
    {
        var exists = File.Exists(path);
        var writer = new StreamWriter(path, append: true, new UTF8Encoding(false));
        if (!exists)
        {
            writer.WriteLine(header);
        }
        return writer;
    }

    public static string Invariant(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>Milliseconds with up to three decimals; empty when unknown.</summary>
    public static string Ms(double value) =>
        double.IsNaN(value) ? "" : value.ToString("0.###", CultureInfo.InvariantCulture);
}
