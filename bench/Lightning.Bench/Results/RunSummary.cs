using System.Text.Json.Serialization;
using System.Text.Json;

namespace Lightning.Bench.Results;

/// <summary>summary.json: the run's cases with their figures; units are in the names (ms, per second).</summary>
public sealed record RunSummary(string RunId, string Scenario, string Invoices, IReadOnlyList<CaseSummary> Cases)
{
    public const string FileName = "summary.json";

    public static readonly JsonSerializerOptions Json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    public void Write(string directory) =>
        File.WriteAllText(Path.Combine(directory, FileName), JsonSerializer.Serialize(this, Json));

    public static RunSummary Read(string json) =>
        JsonSerializer.Deserialize<RunSummary>(json, Json) ?? throw new InvalidDataException("summary.json is empty");
}
