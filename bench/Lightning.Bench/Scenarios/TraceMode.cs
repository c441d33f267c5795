namespace Lightning.Bench.Scenarios;

/// <summary>
/// The Traces parameter's value (on, off, unread), in command-line order, so <c>--traces off,on</c> measures off
/// first. Alternating the order between runs takes the case order out of an overhead figure
/// (benchmarks/trace-overhead.sh does).
/// </summary>
public sealed record TraceMode(int Index, string Name) : OrderedName(Index, Name);
