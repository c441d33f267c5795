using Lightning.Bench.Options;

namespace Lightning.Bench.Scenarios;

/// <summary>A swept [Params] parameter: its name, the option that sets it, its default sweep and its range.</summary>
internal sealed record ScenarioParameter(string Name, string Option, string Description, IReadOnlyList<int> Default, int Min, int Max, string? RangeReason = null)
{
    public IReadOnlyList<int> ValuesFrom(HarnessOptions options) => options.Sweeps.GetValueOrDefault(Name) ?? Default;
}
