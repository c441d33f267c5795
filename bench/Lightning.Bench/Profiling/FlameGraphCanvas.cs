using System.Globalization;
using System.Text;
using System.Xml;

namespace Lightning.Bench.Profiling;

/// <summary>
/// Lays a call tree out as a flame graph (root at the bottom, a frame as wide as its total samples, children from its
/// left edge in name order) and writes it as a static SVG: a tooltip per frame, no script, coordinates to 0.1 px.
/// </summary>
internal static class FlameGraphCanvas
{
    /// <summary>
    /// The frames at least <see cref="FlameGraphStyle.MinFrameWidth"/> wide, and how many were not (a narrow frame's
    /// descendants included: none of them is drawn).
    /// </summary>
    public static (IReadOnlyList<FlameGraphFrame> Frames, int NotDrawn) Layout(
        CallTree root,
        double pixelsPerSample,
        FlameGraphStyle style,
        Func<CallTree, string> tooltip,
        Func<CallTree, string> fill
    )
    {
        var frames = new List<FlameGraphFrame>();
        var notDrawn = 0;
        var pending = new Stack<(CallTree Node, double X)>();
        pending.Push((root, style.Left));
        while (pending.TryPop(out var item))
        {
            var (node, x) = item;
            var width = node.Total * pixelsPerSample;
            if (node.Total == 0)
            {
                continue;
            }
            if (width < style.MinFrameWidth)
            {
                notDrawn += node.DepthFirst().Count();
                continue;
            }
            frames.Add(new FlameGraphFrame(x, width, node.Depth, node.Name, tooltip(node), fill(node)));
            var childX = x;
            foreach (var child in node.Children)
            {
                pending.Push((child, childX));
                childX += child.Total * pixelsPerSample;
            }
        }
        // Back to drawing order (bottom up, left to right), so two renderings of one profile diff line by line.
        frames.Sort((a, b) => a.Depth != b.Depth ? a.Depth.CompareTo(b.Depth) : a.X.CompareTo(b.X));
        return (frames, notDrawn);
    }

    /// <param name="outlineFrames">Draw a thin border round each frame, for graphs whose frames may be white.</param>
    public static string Svg(
        IReadOnlyList<FlameGraphFrame> frames,
        string title,
        IReadOnlyList<string> subtitleLines,
        FlameGraphStyle style,
        bool outlineFrames = false
    )
    {
        var fontSize = style.FontSize;
        var titleY = fontSize * 2;
        var lines = subtitleLines.Where(l => !string.IsNullOrWhiteSpace(l)).ToList();
        var top = titleY + fontSize * (1.5 * lines.Count + 1);
        var rows = frames.Count == 0 ? 0 : frames.Max(f => f.Depth) + 1;
        var height = top + rows * style.FrameHeight + fontSize;

        var text = new StringBuilder();
        using (var svg = XmlWriter.Create(text, new XmlWriterSettings { OmitXmlDeclaration = true, Indent = false }))
        {
            svg.WriteStartElement("svg", "http://www.w3.org/2000/svg");
            svg.WriteAttributeString("version", "1.1");
            svg.WriteAttributeString("width", R(style.Width));
            svg.WriteAttributeString("height", R(height));
            svg.WriteAttributeString("viewBox", $"0 0 {R(style.Width)} {R(height)}");
            svg.WriteAttributeString("font-family", style.FontFamily);
            svg.WriteAttributeString("font-size", R(fontSize));
            NewLine(svg);
            if (outlineFrames)
            {
                svg.WriteElementString("style", "g rect { stroke: #c8c8c8; stroke-width: 0.5 }");
                NewLine(svg);
            }
            svg.WriteStartElement("rect");
            svg.WriteAttributeString("width", "100%");
            svg.WriteAttributeString("height", "100%");
            svg.WriteAttributeString("fill", "#f8f8f8");
            svg.WriteEndElement();
            NewLine(svg);
            Label(svg, style.Width / 2, titleY, fontSize + 5, title, "title");
            for (var i = 0; i < lines.Count; i++)
            {
                Label(svg, style.Width / 2, titleY + fontSize * 1.5 * (i + 1), fontSize, lines[i], "subtitle");
            }
            foreach (var frame in frames)
            {
                var y = height - fontSize - (frame.Depth + 1) * style.FrameHeight;
                svg.WriteStartElement("g");
                svg.WriteElementString("title", Clean(frame.Tooltip));
                svg.WriteStartElement("rect");
                svg.WriteAttributeString("x", R(frame.X));
                svg.WriteAttributeString("y", R(y));
                svg.WriteAttributeString("width", R(frame.Width));
                svg.WriteAttributeString("height", R(style.FrameHeight - 1));
                svg.WriteAttributeString("fill", frame.Fill);
                svg.WriteAttributeString("rx", "2");
                svg.WriteEndElement();
                if (Fitted(frame.Name, frame.Width, style) is { } label)
                {
                    svg.WriteStartElement("text");
                    svg.WriteAttributeString("x", R(frame.X + 3));
                    svg.WriteAttributeString("y", R(y + (style.FrameHeight - 1) / 2 + fontSize * 0.35));
                    svg.WriteString(Clean(label));
                    svg.WriteEndElement();
                }
                svg.WriteEndElement();
                NewLine(svg);
            }
            svg.WriteEndElement();
        }
        return text.Append('\n').ToString();
    }

    /// <summary>"rgb(r,g,b)" from channels 0..255.</summary>
    public static string Rgb(double r, double g, double b) =>
        string.Create(CultureInfo.InvariantCulture, $"rgb({Channel(r)},{Channel(g)},{Channel(b)})");

    /// <summary>The name cut to the characters that fit, ending in "..", as flamegraph.pl; null when fewer than 3 fit.</summary>
    internal static string? Fitted(string name, double width, FlameGraphStyle style)
    {
        var fits = (int)((width - 3) / (style.FontSize * style.FontWidth));
        if (fits < 3)
        {
            return null;
        }
        return name.Length <= fits ? name : name[..(fits - 2)] + "..";
    }

    private static void Label(XmlWriter svg, double x, double y, double size, string content, string role)
    {
        svg.WriteStartElement("text");
        svg.WriteAttributeString("class", role);
        svg.WriteAttributeString("x", R(x));
        svg.WriteAttributeString("y", R(y));
        svg.WriteAttributeString("font-size", R(size));
        svg.WriteAttributeString("text-anchor", "middle");
        svg.WriteString(Clean(content));
        svg.WriteEndElement();
        NewLine(svg);
    }

    private static void NewLine(XmlWriter svg) => svg.WriteWhitespace("\n");

    private static int Channel(double value) => (int)Math.Round(Math.Clamp(value, 0, 255));

    private static string R(double value) => Math.Round(value, 1).ToString("0.#", CultureInfo.InvariantCulture);

    /// <summary>Symbols are arbitrary bytes; characters XML cannot carry (controls, lone surrogates) become '?'.</summary>
    private static string Clean(string text)
    {
        var clean = new StringBuilder(text.Length);
        foreach (var rune in text.EnumerateRunes())
        {
            var valid = rune != Rune.ReplacementChar && (!rune.IsBmp || XmlConvert.IsXmlChar((char)rune.Value));
            clean.Append(valid ? rune.ToString() : "?");
        }
        return clean.ToString();
    }
}
