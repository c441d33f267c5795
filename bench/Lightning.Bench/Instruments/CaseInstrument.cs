namespace Lightning.Bench.Instruments;

/// <summary>
/// Something that watches a case's invocations (timing, the nodes' costs, instructions, profiles, the harness's own
/// collections): a small window object with the same few hooks, all outside the invocations' timing. A case calls
/// <see cref="BeforeInvocationAsync"/> in the order the instruments are registered (in one place, the run's instrument registry) and
/// <see cref="AfterInvocationAsync"/> in the reverse order, so each window nests inside the one before it and the
/// innermost is closest to the operations. Every hook does nothing unless overridden.
/// </summary>
internal abstract class CaseInstrument
{
    /// <summary>Before the first invocation, while the nodes are idle: what the instrument measures of them at rest. All instruments' run at once.</summary>
    public virtual Task MeasureIdleBeforeAsync(CancellationToken ct) => Task.CompletedTask;

    /// <summary>After the workload is ready, before the first invocation: the instrument starts (e.g. a perf recording, off).</summary>
    public virtual Task StartAsync(CancellationToken ct) => Task.CompletedTask;

    public virtual Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct) => Task.CompletedTask;

    public virtual Task AfterInvocationAsync(Invocation invocation, CancellationToken ct) => Task.CompletedTask;

    /// <summary>After the last invocation, while the nodes are idle again (a timed case's end, behind the next case's setup). All instruments' run at once; never throws.</summary>
    public virtual Task MeasureIdleAfterAsync(CancellationToken ct) => Task.CompletedTask;

    /// <summary>The case's end while its topology is still up: the instrument writes what it measured.</summary>
    public virtual Task EndAsync(CancellationToken ct) => Task.CompletedTask;

    /// <summary>Teardown, whatever happened before: the instrument lets go of what it holds; never throws.</summary>
    public virtual ValueTask ReleaseAsync() => ValueTask.CompletedTask;
}
