using System.Globalization;

namespace Lightning.Bench.Csv;

/// <summary>One row of a file <see cref="CsvReader"/> read, by column name.</summary>
internal sealed class CsvRow(IReadOnlyDictionary<string, string> values)
{
    public string this[string column] => values[column];

    /// <summary>The column's invariant-culture number; NaN when it is empty, missing or not a number.</summary>
    public double Number(string column) =>
        values.TryGetValue(column, out var text)
        && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
            ? value
            : double.NaN;
}
