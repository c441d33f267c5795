namespace Lightning.Bench.Scenarios;

/// <summary>A swept [Params] parameter: its name, the option that sets it, its default sweep and its range.</summary>
internal sealed record ScenarioParameter(
    string Name,
    string Option,
    string Description,
    IReadOnlyList<int> Default,
    int Min,
    int Max,
    string? RangeReason = null
)
{
    /// <summary>Whether every value must be even (the hub's peers: half pay, half are paid).</summary>
    public bool Even { get; init; }

    /// <summary>Its values in a run: those swept on the command line (parameter name → values), else its default.</summary>
    public IReadOnlyList<int> ValuesFrom(IReadOnlyDictionary<string, IReadOnlyList<int>> sweeps) =>
        sweeps.GetValueOrDefault(Name) ?? Default;
}
