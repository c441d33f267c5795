using System.Globalization;
using System.Text;

namespace Lightning.Bench.Profiling;

/// <summary>
/// A classic flame graph as flamegraph.pl draws it: "all" at the bottom, then processes, then each stack upwards; a
/// frame's width is its share of all samples; hovering a frame shows its samples. Warm colours stable per name, kernel
/// frames orange, frames without a symbol grey, processes violet.
/// </summary>
internal static class FlameGraphSvg
{
    /// <param name="unit">What a count is ("samples", "instructions").</param>
    public static string Render(
        FoldedStacks stacks,
        string title,
        string subtitle,
        FlameGraphStyle? style = null,
        string unit = "samples"
    )
    {
        style ??= FlameGraphStyle.Default;
        var root = CallTree.Build(stacks);
        var total = (double)root.Total;
        var pixelsPerSample = total > 0 ? style.FramesWidth / total : 0;
        var (frames, notDrawn) = FlameGraphCanvas.Layout(
            root,
            pixelsPerSample,
            style,
            node =>
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"{node.Name} ({node.Total.ToString(unit == "samples" ? "0" : "#,0", CultureInfo.InvariantCulture)} {unit}, {100 * node.Total / total:0.00} %)"
                ),
            Fill
        );
        return FlameGraphCanvas.Svg(frames, title, [Joined(subtitle, NotDrawnNote(notDrawn, style))], style);
    }

    /// <summary>"N frames narrower than 0.1 px not drawn", or null when all were drawn.</summary>
    internal static string? NotDrawnNote(int notDrawn, FlameGraphStyle style) =>
        notDrawn == 0
            ? null
            : string.Create(
                CultureInfo.InvariantCulture,
                $"{notDrawn} frames narrower than {style.MinFrameWidth:0.###} px not drawn"
            );

    internal static string Joined(params string?[] parts) =>
        string.Join(" · ", parts.Where(p => !string.IsNullOrWhiteSpace(p)));

    /// <summary>flamegraph.pl's palettes: "hot" for code, orange for the kernel, grey for unknown symbols.</summary>
    internal static string Fill(CallTree node)
    {
        var (v1, v2, v3) = NameHash(node.Name);
        if (node.Depth == 0)
        {
            return FlameGraphCanvas.Rgb(220, 220, 220);
        }
        if (node.Depth == 1)
        {
            return FlameGraphCanvas.Rgb(160 + 30 * v1, 140 + 30 * v2, 220 + 30 * v3);
        }
        if (node.Name.EndsWith(PerfScriptFolder.KernelSuffix, StringComparison.Ordinal))
        {
            return FlameGraphCanvas.Rgb(190 + 65 * v1, 90 + 65 * v1, 0);
        }
        if (node.Name.StartsWith('[') && node.Name.EndsWith(']'))
        {
            var grey = 170 + 40 * v1;
            return FlameGraphCanvas.Rgb(grey, grey, grey);
        }
        return FlameGraphCanvas.Rgb(205 + 50 * v3, 230 * v1, 55 * v2);
    }

    /// <summary>
    /// Three numbers in 0..1 from a name, the same on every machine and run (string.GetHashCode is randomised per
    /// process), so a function keeps its colour from one graph to the next.
    /// </summary>
    private static (double, double, double) NameHash(string name)
    {
        var hash = 2166136261u;
        foreach (var b in Encoding.UTF8.GetBytes(name))
        {
            hash = (hash ^ b) * 16777619u;
        }
        return ((hash & 0x3FF) / 1023.0, ((hash >> 10) & 0x3FF) / 1023.0, ((hash >> 20) & 0x3FF) / 1023.0);
    }
}
