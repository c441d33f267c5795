using System.Net;
using System.Text;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Reports;

/// <summary>
/// The markdown the harness writes (headings, pipe tables, lists, paragraphs, fenced code, images, links, `code`,
/// **bold**, *italics*) as HTML, for the run's page. Everything else is text, escaped. A verdict column's cell gets its class (verdict-slower, -faster, -same, -unknown), so the page can colour it; an image is whatever
/// <see cref="Convert"/>'s resolver makes of its path (the page inlines it). Only the column headed "verdict" is coloured.
/// </summary>
internal static partial class MarkdownHtml
{
    /// <param name="image">A markdown image's (path, alt text) → the HTML to put in its place (an inlined image or SVG), or null to show its alt text as a link.</param>
    public static string Convert(string markdown, Func<string, string, string?>? image = null)
    {
        image ??= (_, _) => null;
        var html = new StringBuilder();
        var lines = markdown.ReplaceLineEndings("\n").Split('\n');
        var paragraph = new List<string>();
        void Flush()
        {
            if (paragraph.Count > 0)
            {
                html.Append("<p>").Append(Inline(string.Join(' ', paragraph), image)).Append("</p>\n");
                paragraph.Clear();
            }
        }
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i];
            if (line.StartsWith("```", StringComparison.Ordinal))
            {
                Flush();
                var code = new List<string>();
                for (i++; i < lines.Length && !lines[i].StartsWith("```", StringComparison.Ordinal); i++)
                {
                    code.Add(lines[i]);
                }
                html.Append("<pre><code>")
                    .Append(WebUtility.HtmlEncode(string.Join('\n', code)))
                    .Append("</code></pre>\n");
                continue;
            }
            if (Heading().Match(line) is { Success: true } heading)
            {
                Flush();
                var level = heading.Groups[1].Length;
                var text = heading.Groups[2].Value;
                html.Append($"<h{level} id=\"{Anchor(text)}\">").Append(Inline(text, image)).Append($"</h{level}>\n");
                continue;
            }
            if (line.TrimStart().StartsWith('|') && i + 1 < lines.Length && Separator().IsMatch(lines[i + 1]))
            {
                Flush();
                var header = Cells(line);
                var alignments = Cells(lines[i + 1]).Select(c => c.EndsWith(':') ? " class=\"num\"" : "").ToList();
                // Only a column headed "verdict…" holds verdicts (a build may be named "same").
                var verdictColumn = header.FindIndex(h => h.StartsWith("verdict", StringComparison.OrdinalIgnoreCase));
                html.Append("<table>\n<thead><tr>");
                foreach (var cell in header)
                {
                    html.Append("<th>").Append(Inline(cell, image)).Append("</th>");
                }
                html.Append("</tr></thead>\n<tbody>\n");
                for (i += 2; i < lines.Length && lines[i].TrimStart().StartsWith('|'); i++)
                {
                    html.Append("<tr>");
                    var cells = Cells(lines[i]);
                    for (var c = 0; c < cells.Count; c++)
                    {
                        var classes = new List<string>();
                        if (c < alignments.Count && alignments[c].Length > 0)
                        {
                            classes.Add("num");
                        }
                        if (c == verdictColumn && VerdictClass(cells[c]) is { } verdict)
                        {
                            classes.Add(verdict);
                        }
                        html.Append(classes.Count > 0 ? $"<td class=\"{string.Join(' ', classes)}\">" : "<td>")
                            .Append(Inline(cells[c], image))
                            .Append("</td>");
                    }
                    html.Append("</tr>\n");
                }
                i--;
                html.Append("</tbody>\n</table>\n");
                continue;
            }
            if (ListItem().Match(line) is { Success: true } item)
            {
                Flush();
                html.Append("<ul>\n");
                for (; i < lines.Length && ListItem().Match(lines[i]) is { Success: true } next; i++)
                {
                    var text = new StringBuilder(next.Groups[2].Value);
                    // Continuation lines (indented, not a new item) belong to the item.
                    while (
                        i + 1 < lines.Length
                        && lines[i + 1].StartsWith("  ", StringComparison.Ordinal)
                        && !ListItem().IsMatch(lines[i + 1])
                    )
                    {
                        text.Append(' ').Append(lines[++i].Trim());
                    }
                    html.Append("<li>").Append(Inline(text.ToString(), image)).Append("</li>\n");
                }
                i--;
                html.Append("</ul>\n");
                continue;
            }
            if (string.IsNullOrWhiteSpace(line))
            {
                Flush();
                continue;
            }
            paragraph.Add(line.Trim());
        }
        Flush();
        return html.ToString();
    }

    /// <summary>The class of a cell that states a verdict, or null.</summary>
    public static string? VerdictClass(string cell)
    {
        var text = cell.Trim();
        foreach (var verdict in new[] { "slower", "faster", "same", "unknown" })
        {
            if (text.StartsWith(verdict, StringComparison.Ordinal))
            {
                return $"verdict-{verdict}";
            }
        }
        return null;
    }

    /// <summary>A heading's anchor, as GitHub makes it (lower case, punctuation dropped, spaces to dashes).</summary>
    public static string Anchor(string heading) =>
        Regex.Replace(Regex.Replace(heading.ToLowerInvariant(), @"[^\p{L}\p{N} _-]", ""), " ", "-");

    private static List<string> Cells(string row)
    {
        var text = row.Trim();
        if (text.StartsWith('|'))
        {
            text = text[1..];
        }
        if (text.EndsWith('|') && !text.EndsWith("\\|", StringComparison.Ordinal))
        {
            text = text[..^1];
        }
        return SplitCells().Split(text).Select(c => c.Replace("\\|", "|", StringComparison.Ordinal).Trim()).ToList();
    }

    /// <summary>Escapes the text, then turns images, links, `code`, **bold** and *italics* into HTML (code spans are left alone).</summary>
    private static string Inline(string text, Func<string, string, string?> image)
    {
        var parts = CodeSpan().Split(text);
        var html = new StringBuilder();
        for (var p = 0; p < parts.Length; p++)
        {
            if (p % 2 == 1)
            {
                html.Append("<code>").Append(WebUtility.HtmlEncode(parts[p])).Append("</code>");
                continue;
            }
            var escaped = WebUtility.HtmlEncode(parts[p]);
            escaped = Image()
                .Replace(
                    escaped,
                    m =>
                    {
                        var path = WebUtility.HtmlDecode(m.Groups[2].Value);
                        return image(path, WebUtility.HtmlDecode(m.Groups[1].Value))
                            ?? $"<a href=\"{m.Groups[2].Value}\">{m.Groups[1].Value}</a>";
                    }
                );
            // A link to an SVG (a flame graph) keeps its link and, when the resolver inlines it, shows the graph after it.
            escaped = Link()
                .Replace(
                    escaped,
                    m =>
                    {
                        var link = $"<a href=\"{m.Groups[2].Value}\">{m.Groups[1].Value}</a>";
                        return
                            m.Groups[2].Value.EndsWith(".svg", StringComparison.OrdinalIgnoreCase)
                            && image(WebUtility.HtmlDecode(m.Groups[2].Value), WebUtility.HtmlDecode(m.Groups[1].Value))
                                is { } inlined
                            ? link + inlined
                            : link;
                    }
                );
            escaped = Bold().Replace(escaped, "<strong>$1</strong>");
            escaped = Italic().Replace(escaped, "$1<em>$2</em>");
            html.Append(escaped);
        }
        return html.ToString();
    }

    [GeneratedRegex(@"^(#{1,6})\s+(.*)$")]
    private static partial Regex Heading();

    [GeneratedRegex(@"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")]
    private static partial Regex Separator();

    [GeneratedRegex(@"(?<!\\)\|")]
    private static partial Regex SplitCells();

    [GeneratedRegex(@"^(\s*)[-*]\s+(.*)$")]
    private static partial Regex ListItem();

    [GeneratedRegex("`([^`]*)`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"!\[([^\]]*)\]\(([^)\s]+)\)")]
    private static partial Regex Image();

    [GeneratedRegex(@"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"\*\*([^*]+)\*\*")]
    private static partial Regex Bold();

    [GeneratedRegex(@"(^|[\s(])\*([^*\s][^*]*)\*")]
    private static partial Regex Italic();
}
