namespace Lightning.Bench.Docker;

/// <summary>The engine's list and event filters, in Docker.DotNet's shape (name → value → true).</summary>
internal static class EngineFilters
{
    /// <summary>One label filter, "key" or "key=value".</summary>
    public static IDictionary<string, IDictionary<string, bool>> Label(string labelFilter) =>
        Of(("label", labelFilter));

    public static IDictionary<string, IDictionary<string, bool>> Of(params (string Name, string Value)[] filters) =>
        filters
            .GroupBy(f => f.Name)
            .ToDictionary(g => g.Key, g => (IDictionary<string, bool>)g.ToDictionary(f => f.Value, _ => true));

    /// <summary>Whether labels match one label filter, "key" or "key=value", as the engine would match them.</summary>
    public static bool Matches(IReadOnlyDictionary<string, string> labels, string labelFilter) =>
        labelFilter.IndexOf('=') is var at and >= 0
            ? labels.TryGetValue(labelFilter[..at], out var value) && value == labelFilter[(at + 1)..]
            : labels.ContainsKey(labelFilter);
}
