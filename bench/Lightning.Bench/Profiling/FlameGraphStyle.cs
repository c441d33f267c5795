namespace Lightning.Bench.Profiling;

/// <summary>Geometry and font of a flame graph; the defaults are flamegraph.pl's.</summary>
internal sealed record FlameGraphStyle
{
    private readonly double width = 1200;
    private readonly double frameHeight = 16;
    private readonly double minFrameWidth = 0.1;
    private readonly double fontSize = 12;
    private readonly double fontWidth = 0.59;
    private readonly double padding = 10;
    private readonly string fontFamily = "Verdana";

    public static FlameGraphStyle Default { get; } = new();

    /// <summary>Image width in pixels, margins included.</summary>
    public double Width
    {
        get => width;
        init => width = AtLeast(value, 100, nameof(Width));
    }

    /// <summary>Height of one stack level in pixels.</summary>
    public double FrameHeight
    {
        get => frameHeight;
        init => frameHeight = AtLeast(value, 4, nameof(FrameHeight));
    }

    /// <summary>Frames narrower than this many pixels are left out (and counted in the subtitle).</summary>
    public double MinFrameWidth
    {
        get => minFrameWidth;
        init => minFrameWidth = AtLeast(value, 0, nameof(MinFrameWidth));
    }

    public double FontSize
    {
        get => fontSize;
        init => fontSize = AtLeast(value, 1, nameof(FontSize));
    }

    /// <summary>Average glyph width as a fraction of the font size, to guess how many characters fit in a frame.</summary>
    public double FontWidth
    {
        get => fontWidth;
        init => fontWidth = AtLeast(value, 0.1, nameof(FontWidth));
    }

    public string FontFamily
    {
        get => fontFamily;
        init =>
            fontFamily = !string.IsNullOrWhiteSpace(value)
                ? value
                : throw new ArgumentException("FontFamily cannot be empty.", nameof(FontFamily));
    }

    /// <summary>Margin left and right of the frames, in pixels; the frames keep at least half the width.</summary>
    public double Padding
    {
        get => padding;
        init => padding = AtLeast(value, 0, nameof(Padding));
    }

    /// <summary>The pixels the whole profile spans.</summary>
    internal double FramesWidth => Math.Max(width - 2 * padding, width / 2);

    /// <summary>Where the frames start, so they stay centred whatever the padding.</summary>
    internal double Left => (width - FramesWidth) / 2;

    private static double AtLeast(double value, double minimum, string name) =>
        value >= minimum && double.IsFinite(value)
            ? value
            : throw new ArgumentOutOfRangeException(name, value, $"{name} must be at least {minimum}.");
}
