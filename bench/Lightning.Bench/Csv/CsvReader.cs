using System.Text;

namespace Lightning.Bench.Csv;

/// <summary>
/// A small reader of the harness's own CSV files: a header line, then rows; a field in double quotes may hold commas,
/// newlines and doubled quotes (payments.csv's case and error). Blank lines and rows with the wrong number of fields
/// (a line cut short by a stop) are left out.
/// </summary>
internal static class CsvReader
{
    /// <summary>The rows of <paramref name="path"/>; none when the file is missing or empty.</summary>
    public static IReadOnlyList<CsvRow> Read(string path) => File.Exists(path) ? Parse(File.ReadAllText(path)) : [];

    /// <summary>The rows of a CSV file's text.</summary>
    public static IReadOnlyList<CsvRow> Parse(string text)
    {
        var records = Records(text).ToList();
        if (records.Count == 0)
        {
            return [];
        }
        var header = records[0];
        return records
            .Skip(1)
            .Where(f => f.Count == header.Count && !(f.Count == 1 && f[0].Length == 0))
            .Select(f => new CsvRow(header.Zip(f).ToDictionary(p => p.First, p => p.Second)))
            .ToList();
    }

    private static IEnumerable<List<string>> Records(string text)
    {
        var fields = new List<string>();
        var field = new StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c != '"')
                {
                    field.Append(c);
                }
                else if (i + 1 < text.Length && text[i + 1] == '"')
                {
                    field.Append('"');
                    i++;
                }
                else
                {
                    quoted = false;
                }
                continue;
            }
            switch (c)
            {
                case '"':
                    quoted = true;
                    break;
                case ',':
                    fields.Add(field.ToString());
                    field.Clear();
                    break;
                case '\n':
                    fields.Add(field.ToString().TrimEnd('\r'));
                    field.Clear();
                    yield return fields;
                    fields = new List<string>();
                    break;
                default:
                    field.Append(c);
                    break;
            }
        }
        if (field.Length > 0 || fields.Count > 0)
        {
            fields.Add(field.ToString());
            yield return fields;
        }
    }
}
