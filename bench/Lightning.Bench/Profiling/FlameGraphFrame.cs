namespace Lightning.Bench.Profiling;

/// <summary>One box of a flame graph as laid out: position in pixels, stack level (0 = the bottom row), look.</summary>
internal sealed record FlameGraphFrame(double X, double Width, int Depth, string Name, string Tooltip, string Fill);
