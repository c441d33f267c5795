using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Options;

/// <summary>
/// One budget of --budget 'p95&lt;250ms,rss&lt;400MB,cpu-per-payment&lt;20ms': a soak figure, a comparison and a limit in the
/// figure's unit (ms for latencies and CPU per payment, MB for memory, payments/s for throughput, a count for failures).
/// </summary>
internal sealed partial record SoakBudget(string Metric, string Operator, double Limit, string Text)
{
    /// <summary>Metric → (what it is, its unit, unit suffixes with their factor to that unit).</summary>
    public static readonly IReadOnlyDictionary<
        string,
        (string Meaning, string Unit, IReadOnlyDictionary<string, double> Suffixes)
    > Metrics = new Dictionary<string, (string, string, IReadOnlyDictionary<string, double>)>
    {
        ["p50"] = ("median payment latency over the soak", "ms", Time),
        ["p95"] = ("95th percentile payment latency over the soak", "ms", Time),
        ["p99"] = ("99th percentile payment latency over the soak", "ms", Time),
        ["rss"] = ("the largest resident memory of any node (anonymous memory of its container)", "MB", Memory),
        ["cpu-per-payment"] = (
            "CPU time of all Lightning nodes per successful payment, idle rate subtracted",
            "ms",
            Time
        ),
        ["pps"] = (
            "successful payments per second over the soak",
            "/s",
            new Dictionary<string, double> { [""] = 1, ["/s"] = 1 }
        ),
        ["failures"] = ("failed payments", "", new Dictionary<string, double> { [""] = 1 }),
    };

    private static IReadOnlyDictionary<string, double> Time =>
        new Dictionary<string, double>
        {
            [""] = 1,
            ["ms"] = 1,
            ["s"] = 1000,
            ["us"] = 0.001,
        };

    private static IReadOnlyDictionary<string, double> Memory =>
        new Dictionary<string, double>
        {
            [""] = 1,
            ["MB"] = 1,
            ["MiB"] = 1,
            ["KB"] = 1.0 / 1024,
            ["KiB"] = 1.0 / 1024,
            ["GB"] = 1024,
            ["GiB"] = 1024,
        };

    public static IReadOnlyList<SoakBudget> ParseList(string option, string text)
    {
        var budgets = new List<SoakBudget>();
        foreach (var item in text.Split(',', StringSplitOptions.TrimEntries))
        {
            var match = Pattern().Match(item);
            var help =
                $"give budgets such as 'p95<250ms,rss<400MB,cpu-per-payment<20ms' (figures: {string.Join(", ", Metrics.Keys)})";
            if (!match.Success)
            {
                throw new UsageException($"{option} '{item}' is not FIGURE<LIMIT or FIGURE>LIMIT: {help}");
            }
            var metric = match.Groups["metric"].Value;
            if (!Metrics.TryGetValue(metric, out var known))
            {
                throw new UsageException($"{option} '{item}': unknown figure '{metric}': {help}");
            }
            var suffix = match.Groups["unit"].Value;
            if (!known.Suffixes.TryGetValue(suffix, out var factor))
            {
                throw new UsageException(
                    $"{option} '{item}': '{suffix}' is not a unit of {metric}: use {string.Join(", ", known.Suffixes.Keys.Where(k => k.Length > 0))}"
                );
            }
            var value = double.Parse(match.Groups["value"].Value, CultureInfo.InvariantCulture) * factor;
            if (budgets.Any(b => b.Metric == metric && b.Operator[0] == match.Groups["op"].Value[0]))
            {
                throw new UsageException($"{option} gives a {match.Groups["op"].Value[0]} limit of {metric} twice");
            }
            budgets.Add(new SoakBudget(metric, match.Groups["op"].Value, value, item));
        }
        return budgets;
    }

    public bool Holds(double value) =>
        double.IsFinite(value)
        && Operator switch
        {
            "<" => value < Limit,
            "<=" => value <= Limit,
            ">" => value > Limit,
            _ => value >= Limit,
        };

    [GeneratedRegex(
        @"^(?<metric>[a-z0-9-]+)\s*(?<op><=|>=|<|>)\s*(?<value>[0-9]+(?:\.[0-9]+)?)\s*(?<unit>[A-Za-z/]*)$"
    )]
    private static partial Regex Pattern();
}
