using System.Text;

namespace Lightning.Bench.Options;

/// <summary>The options table of docs/options.md, made from <see cref="OptionCatalog"/> and kept between two markers
/// (and agent mode's in docs/swarm.md, from <c>AgentOptionCatalog</c>).</summary>
internal static class OptionsDocument
{
    public const string Path = "docs/options.md";
    public const string Begin = "<!-- options:begin -->";
    public const string End = "<!-- options:end -->";

    /// <summary>The markdown table: one row per option, or per group of options declared to share one.</summary>
    public static string Table() => Table(OptionCatalog.All);

    public static string Table<TOptions>(IEnumerable<OptionDeclaration<TOptions>> declarations)
    {
        var rows = new List<(List<string> Syntax, List<string> Default, List<string> Meaning)>();
        foreach (var option in declarations)
        {
            var docs = option.Docs;
            if (!docs.JoinsPrevious || rows.Count == 0)
            {
                rows.Add(([], [], []));
            }
            var row = rows[^1];
            row.Syntax.Add(docs.Syntax ?? $"`{option.Syntax.Replace("|", "\\|", StringComparison.Ordinal)}`");
            row.Default.Add(docs.Default);
            row.Meaning.Add(docs.Meaning);
        }
        var table = new StringBuilder("| option | default | meaning |\n| --- | --- | --- |\n");
        foreach (var (syntax, defaults, meaning) in rows)
        {
            table
                .Append('|')
                .AppendJoin(
                    "",
                    new[] { Cell(syntax), Cell(defaults), Cell(meaning) }.Select(c => c.Length > 0 ? $" {c} |" : " |")
                )
                .Append('\n');
        }
        return table.ToString();
    }

    /// <summary>The document with the text between the markers replaced by <paramref name="table"/>.</summary>
    public static string WithTable(string document, string table, string begin = Begin, string end = End)
    {
        var (start, stop) = Section(document, begin, end);
        return $"{document[..start]}\n{table}{document[stop..]}";
    }

    /// <summary>The text between the markers (the table as last generated).</summary>
    public static string TableIn(string document, string begin = Begin, string end = End)
    {
        var (start, stop) = Section(document, begin, end);
        return document[start..stop].TrimStart('\n');
    }

    private static (int Start, int End) Section(string document, string beginMarker, string endMarker)
    {
        var begin = document.IndexOf(beginMarker, StringComparison.Ordinal);
        var end = document.IndexOf(endMarker, StringComparison.Ordinal);
        return begin >= 0 && end > begin
            ? (begin + beginMarker.Length, end)
            : throw new InvalidDataException(
                $"the document has no {beginMarker} ... {endMarker} section for an options table"
            );
    }

    private static string Cell(IEnumerable<string> parts) => string.Join(" / ", parts.Where(p => p.Length > 0));
}
