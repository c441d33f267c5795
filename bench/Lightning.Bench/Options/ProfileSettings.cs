using System.Globalization;

namespace Lightning.Bench.Options;

/// <summary>
/// How --profile samples the nodes: `perf record` on the cpu-clock event (a timer, so it works in virtual machines
/// without hardware counters) at <see cref="FrequencyHz"/> per CPU, with call stacks unwound from DWARF (images built
/// without frame pointers, as most are) or from frame pointers.
/// </summary>
/// <param name="Required">Without the means to profile, stop (true) or run without profiles (--profile-if-available).</param>
/// <param name="PerfPath">The perf program (a name on PATH or a path).</param>
internal sealed record ProfileSettings(
    int FrequencyHz = ProfileSettings.DefaultFrequencyHz,
    string CallGraph = ProfileSettings.Dwarf,
    bool Required = true,
    string PerfPath = "perf"
)
{
    /// <summary>Not a multiple of common timer rates, so sampling does not lock step with periodic work.</summary>
    /// <summary>A soak's profile window: long enough for hundreds of samples per node at 99 Hz, short against the minutes between windows.</summary>
    public static readonly TimeSpan SoakWindowLength = TimeSpan.FromSeconds(10);

    public const int DefaultFrequencyHz = 99;

    public const string Dwarf = "dwarf";
    public const string FramePointers = "fp";

    /// <summary>User stack copied per sample for DWARF unwinding: deep enough for Core Lightning's io_loop → plugin → handler chains.</summary>
    public const int DwarfStackBytes = 16384;

    /// <summary>The event, rate and call-graph arguments of `perf record`.</summary>
    public IReadOnlyList<string> RecordArguments =>
        [
            "-e",
            "cpu-clock",
            "-F",
            FrequencyHz.ToString(CultureInfo.InvariantCulture),
            "--call-graph",
            CallGraph == Dwarf ? $"dwarf,{DwarfStackBytes}" : "fp",
        ];

    public string Describe() =>
        Invariant(
            $"cpu-clock at {FrequencyHz} Hz, {(CallGraph == Dwarf ? $"DWARF stacks ({DwarfStackBytes / 1024} KB copied per sample)" : "frame-pointer stacks")}"
        );

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
