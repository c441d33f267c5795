namespace Lightning.Bench.Csv;

/// <summary>
/// A small reader of the harness's own CSV files whose fields are plain numbers and names (no quoting): a header line,
/// then rows; blank lines and rows with the wrong number of fields (a line cut short by a stop) are left out.
/// </summary>
internal static class CsvReader
{
    /// <summary>The rows of <paramref name="path"/>; none when the file is missing or empty.</summary>
    public static IReadOnlyList<CsvRow> Read(string path)
    {
        if (!File.Exists(path))
        {
            return [];
        }
        var lines = File.ReadAllLines(path);
        if (lines.Length == 0)
        {
            return [];
        }
        var header = lines[0].Split(',');
        return lines.Skip(1).Where(l => l.Length > 0)
            .Select(l => l.Split(','))
            .Where(f => f.Length == header.Length)
            .Select(f => new CsvRow(header.Zip(f).ToDictionary(p => p.First, p => p.Second)))
            .ToList();
    }
}
