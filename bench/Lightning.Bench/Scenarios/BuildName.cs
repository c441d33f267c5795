namespace Lightning.Bench.Scenarios;

/// <summary>
/// The Build parameter's value: shows as the build's name, sorts in command-line order (BenchmarkDotNet orders
/// parameter values by comparing them), so the baseline build comes first in the run and in the table.
/// </summary>
public sealed record BuildName(int Index, string Name) : IComparable<BuildName>, IComparable
{
    public int CompareTo(BuildName? other) => other is null ? 1 : Index.CompareTo(other.Index);

    public int CompareTo(object? obj) => CompareTo(obj as BuildName);

    public override string ToString() => Name;
}
