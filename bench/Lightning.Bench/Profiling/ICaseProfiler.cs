namespace Lightning.Bench.Profiling;

/// <summary>
/// A case's profiles, one per Lightning node, switched on around the invocations they sample and folded when the case
/// ends: recorded here (<see cref="CaseProfiler"/>) or by the agent on a swarm topology's host (<c>RelayCaseProfiler</c>).
/// </summary>
internal interface ICaseProfiler : IAsyncDisposable
{
    Task EnableAsync(CancellationToken ct = default);

    /// <summary>Switches sampling off (nothing when it was not on).</summary>
    Task DisableAsync(CancellationToken ct = default);

    /// <summary>Each node's folded stacks, how long it was sampled and how big its raw recording was.</summary>
    Task<IReadOnlyDictionary<string, (FoldedStacks Stacks, TimeSpan Sampled, long RawBytes)>> StopAndFoldAsync(
        CancellationToken ct = default
    );

    /// <summary>The median round trip of a switch where it crosses a network (an agent's), ms; NaN when switches are local.</summary>
    double MedianSwitchMs => double.NaN;
}
