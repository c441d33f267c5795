using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads;

/// <summary>Spreads a workload's operations over a case's flows in turn, across concurrent callers.</summary>
internal sealed class FlowRotation(IReadOnlyList<PaymentFlow> flows)
{
    private long cursor;

    public PaymentFlow Next() => flows[(int)(Interlocked.Increment(ref cursor) % flows.Count)];

    /// <summary>Starts <paramref name="operations"/> operations at once, each on the next flow, and waits for all.</summary>
    public Task RunAsync(int operations, Func<PaymentFlow, Task> operation) =>
        Task.WhenAll(Enumerable.Range(0, operations).Select(_ => operation(Next())).ToList());
}
