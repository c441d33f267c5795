namespace Lightning.Bench.Scenarios;

/// <summary>
/// A parameter value that shows as its name and sorts in command-line order: BenchmarkDotNet orders parameter values
/// by comparing them, and the harness wants the order the user gave (baseline build first, trace modes as listed).
/// </summary>
public abstract record OrderedName(int Index, string Name) : IComparable<OrderedName>, IComparable
{
    public int CompareTo(OrderedName? other) => other is null ? 1 : Index.CompareTo(other.Index);

    public int CompareTo(object? obj) => CompareTo(obj as OrderedName);

    public sealed override string ToString() => Name;
}
