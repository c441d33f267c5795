namespace Lightning.Bench.Scenarios;

/// <summary>
/// The Traces parameter's value: shows as the mode (on, off, unread), sorts in command-line order, so
/// <c>--traces off,on</c> measures off first. Alternating the order between runs takes the case order out of an
/// overhead figure (benchmarks/trace-overhead.sh does).
/// </summary>
public sealed record TraceMode(int Index, string Name) : IComparable<TraceMode>, IComparable
{
    public int CompareTo(TraceMode? other) => other is null ? 1 : Index.CompareTo(other.Index);

    public int CompareTo(object? obj) => CompareTo(obj as TraceMode);

    public override string ToString() => Name;
}
