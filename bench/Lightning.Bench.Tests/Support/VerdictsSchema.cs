using System.Text.Json;
using Json.Schema;

namespace Lightning.Bench.Tests.Support;

/// <summary>docs/verdicts.schema.json, and a verdicts.json checked against it (JsonSchema.Net, draft 2020-12).</summary>
internal static class VerdictsSchema
{
    public static string File => Path.Combine(DocumentationTests.Root, "docs", "verdicts.schema.json");

    /// <summary>The schema's errors for <paramref name="json"/>, one line each: none when it is valid.</summary>
    public static IReadOnlyList<string> Errors(string json)
    {
        var schema = JsonSchema.FromText(System.IO.File.ReadAllText(File));
        using var document = JsonDocument.Parse(json);
        var results = schema.Evaluate(document.RootElement, new EvaluationOptions { OutputFormat = OutputFormat.List });
        return results.IsValid
            ? []
            : (results.Details ?? [])
                .Where(d => d.Errors is { Count: > 0 })
                .SelectMany(d => d.Errors!.Select(e => $"{d.InstanceLocation}: {e.Key}: {e.Value}"))
                .DefaultIfEmpty("invalid")
                .ToList();
    }
}
