namespace Lightning.Bench.Instruments;

/// <summary>
/// An instrument that reads the nodes just before an invocation and just after it, and records what changed between
/// the two readings for that invocation; an after-reading without a before-reading records nothing.
/// </summary>
internal abstract class ReadingWindow<T> : CaseInstrument
    where T : class
{
    private T? before;

    protected abstract Task<T> ReadAsync(CancellationToken ct);

    /// <summary>What changed over <paramref name="invocation"/>, from its two readings.</summary>
    protected abstract void Record(Invocation invocation, T before, T after);

    public override async Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct) =>
        before = await ReadAsync(ct);

    public override async Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        var start = before;
        before = null;
        if (start is not null)
        {
            Record(invocation, start, await ReadAsync(ct));
        }
    }
}
