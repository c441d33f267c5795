using Spectre.Console;
using Spectre.Console.Rendering;

namespace Lightning.Bench.Progress;

/// <summary>
/// A line of text on exactly one screen line, cut with an ellipsis when the terminal is narrower. Spectre.Console's
/// Text wraps at spaces; under a live display a wrapped line makes the frame's height jump as lines come and go.
/// </summary>
internal sealed class CroppedLine(string text, Style style) : Renderable
{
    // A progress line may carry a message with line breaks or tabs (an exception's): on one line they are spaces.
    private readonly string text = new(text.Select(c => char.IsControl(c) ? ' ' : c).ToArray());

    protected override Measurement Measure(RenderOptions options, int maxWidth)
    {
        var width = Math.Min(new Segment(text).CellCount(), maxWidth);
        return new Measurement(Math.Min(1, width), width);
    }

    protected override IEnumerable<Segment> Render(RenderOptions options, int maxWidth)
    {
        var whole = new Segment(text, style);
        if (whole.CellCount() <= maxWidth)
        {
            yield return whole;
        }
        else if (maxWidth > 0)
        {
            var kept = Segment.Truncate(whole, maxWidth - 1)?.Text ?? "";
            yield return new Segment(kept + "…", style);
        }
        yield return Segment.LineBreak;
    }
}
