namespace Lightning.Bench.Profiling;

/// <summary>How a flame graph's counts per payment read: CPU milliseconds from samples, or instructions as counted.</summary>
/// <param name="What">"CPU", "Instructions".</param>
/// <param name="Unit">"ms", "instructions".</param>
/// <param name="Self">What a frame's own share is called ("self time", "self instructions").</param>
internal sealed record ProfileUnits(string What, string Unit, string Self, Func<double, string> Format, Func<double, string> Signed)
{
    /// <summary>Instruction counts (callgrind's Ir), with thousands separators.</summary>
    public static ProfileUnits Instructions { get; } = new("Instructions", "instructions", "self instructions",
        v => v.ToString("#,0", System.Globalization.CultureInfo.InvariantCulture),
        v => v.ToString("+#,0;-#,0;0", System.Globalization.CultureInfo.InvariantCulture));
}
