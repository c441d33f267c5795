using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cli;

/// <summary>The scenarios users can run by name; adding one is adding a class and a line here.</summary>
public static class ScenarioCatalog
{
    private static readonly ScenarioParameter Concurrency = new(
        nameof(AlicePaysBob.Concurrency), "--concurrency", "payments started at once in each benchmark invocation", o => o.Concurrency);

    public static ScenarioInfo Default { get; } = new(
        nameof(AlicePaysBob), typeof(AlicePaysBob),
        "Alice pays Bob over one direct channel: invoice on Bob, xpay on Alice.",
        [Concurrency]);

    public static IReadOnlyList<ScenarioInfo> All { get; } = [Default];

    public static ScenarioInfo? Find(string name) =>
        All.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));
}
