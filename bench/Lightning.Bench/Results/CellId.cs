using System.Globalization;

namespace Lightning.Bench.Results;

/// <summary>
/// A cell: what every arm of a comparison measures alike, typed: the workload and the scenario's numbers
/// (Concurrency, CarolsCount, ...). Equal when they are; <see cref="Label"/> names it in tables ("Concurrency=4",
/// "Concurrency=1, Workload=fail-at-payee"; "-" for none).
/// </summary>
internal sealed class CellId(string workload, IReadOnlyDictionary<string, int> numbers) : IEquatable<CellId>
{
    public const string WorkloadName = "Workload";

    /// <summary>The workload a case without one ran (every run before workloads): left out of keys and labels.</summary>
    public const string DefaultWorkload = "pay";

    public const string ConcurrencyName = "Concurrency";

    public string Workload { get; } = workload;

    public IReadOnlyDictionary<string, int> Numbers { get; } = numbers;

    /// <summary>Payments (operations) each payer starts at once per invocation, when the scenario has it (every one does).</summary>
    public int? Concurrency => Numbers.TryGetValue(ConcurrencyName, out var n) ? n : null;

    public string Label
    {
        get
        {
            var parts = Parts().OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}").ToList();
            return parts.Count == 0 ? "-" : string.Join(", ", parts);
        }
    }

    /// <summary>The cell's parameters as a key names them: its numbers, and its workload unless the default.</summary>
    public IEnumerable<KeyValuePair<string, string>> Parts()
    {
        foreach (var (name, value) in Numbers)
        {
            yield return new(name, value.ToString(CultureInfo.InvariantCulture));
        }
        if (Workload != DefaultWorkload)
        {
            yield return new(WorkloadName, Workload);
        }
    }

    public bool Equals(CellId? other) => other is not null && Label == other.Label;

    public override bool Equals(object? obj) => Equals(obj as CellId);

    public override int GetHashCode() => Label.GetHashCode(StringComparison.Ordinal);

    public override string ToString() => Label;
}
