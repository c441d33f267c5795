using System.Text.Json;
using System.Text.Json.Serialization;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Results;

/// <summary>summary.json: the run's cases with their figures; units are in the names (ms, per second).</summary>
/// <param name="Comparisons">Every build and trace-mode comparison, with topologies as the unit (absent in runs before they existed).</param>
/// <param name="Spreads">Each arm's spread between topologies and within them.</param>
internal sealed record RunSummary(
    string RunId,
    string Scenario,
    string Invoices,
    IReadOnlyList<CaseSummary> Cases,
    IReadOnlyList<ArmComparison>? Comparisons = null,
    IReadOnlyList<ArmSpread>? Spreads = null,
    double? ThresholdPercent = null
)
{
    /// <summary>What the run's figures mean beyond its cases (absent in runs before it was recorded: see <see cref="ConditionsOr"/>).</summary>
    public MeasurementConditions? Conditions { get; init; }

    /// <summary>The run's conditions as recorded, or as its files show them for an older run.</summary>
    public MeasurementConditions ConditionsOr(Manifest? manifest) =>
        Conditions ?? manifest?.Conditions ?? MeasurementConditions.Inferred(this, manifest);

    /// <summary>The machine while the run measured: load, other work's share of the CPU and whether that made it busy (absent before it was recorded).</summary>
    public MachineLoad? MachineLoad { get; init; }

    /// <summary>The signal that stopped the run before its end ("SIGHUP", "SIGINT"): its cases are those it had, a case cut off with the figures of what it measured; absent for a run that ended.</summary>
    public string? Interrupted { get; init; }

    public const string FileName = "summary.json";

    public static readonly JsonSerializerOptions Json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    public void Write(string directory) =>
        AtomicFile.WriteAllText(Path.Combine(directory, FileName), JsonSerializer.Serialize(this, Json));

    public static RunSummary Read(string json) =>
        JsonSerializer.Deserialize<RunSummary>(json, Json) ?? throw new InvalidDataException("summary.json is empty");
}
