namespace Lightning.Bench.Profiling;

/// <summary>How a flame graph's counts per payment read: CPU milliseconds from samples, or instructions as counted.</summary>
/// <param name="What">"CPU", "Instructions".</param>
/// <param name="Unit">"ms", "instructions".</param>
/// <param name="Self">What a frame's own share is called ("self time", "self instructions").</param>
/// <param name="Counts">What the folded counts are ("samples", "instructions").</param>
/// <param name="Report">The report that lists the functions ("profiles.md").</param>
internal sealed record ProfileUnits(
    string What,
    string Unit,
    string Self,
    Func<double, string> Format,
    Func<double, string> Signed,
    string Counts,
    string Report
)
{
    /// <summary>Instruction counts (callgrind's Ir), with thousands separators.</summary>
    public static ProfileUnits Instructions { get; } =
        new(
            "Instructions",
            "instructions",
            "self instructions",
            v => v.ToString("#,0", System.Globalization.CultureInfo.InvariantCulture),
            v => v.ToString("+#,0;-#,0;0", System.Globalization.CultureInfo.InvariantCulture),
            "instructions",
            "instructions.md"
        );
}
