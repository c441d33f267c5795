namespace Lightning.Bench.Workloads;

/// <summary>
/// What one measured invocation of a case does on its live topology, apart from the topology it runs on and from the
/// instruments that watch it. Each operation's outcome (succeeded, or failed with the node's reason; as the workload
/// expects or not) goes to the case's <see cref="OperationLog"/>: a node's failure is an outcome, never an exception.
/// </summary>
internal interface IWorkload
{
    /// <summary>Readies the workload on its topology before the first invocation (and the idle windows), e.g. invoices made ahead.</summary>
    /// <param name="operations">Operations the case's invocations will make, warmups included.</param>
    Task PrepareAsync(int operations, CancellationToken ct = default);

    /// <summary>Outside the invocation's timing, before it (and before the wait for quiet nodes): what its operations need ready.</summary>
    Task BeforeInvocationAsync(int operations, CancellationToken ct = default);

    /// <summary>
    /// One invocation: <paramref name="operations"/> operations started at once, awaited all; each is recorded as
    /// invocation <paramref name="invocation"/>. A cancellation is recorded for the operations it cut off, then thrown.
    /// </summary>
    Task RunAsync(int invocation, int operations, CancellationToken ct = default);
}
