namespace Lightning.Bench.Waiting;

/// <summary>
/// The one polling primitive: check, sleep, repeat until the condition holds or the timeout names it. By default it
/// looks every 50 ms for the first seconds (setup's waits mostly end within one or two, and each look's lateness adds to
/// every topology's setup) and every 250 ms after that.
/// </summary>
internal static class Wait
{
    public static readonly TimeSpan FastInterval = TimeSpan.FromMilliseconds(50);
    public static readonly TimeSpan SlowInterval = TimeSpan.FromMilliseconds(250);
    public static readonly TimeSpan FastFor = TimeSpan.FromSeconds(3);

    /// <param name="check">Looks once. An exception counts as "not yet" with its message as what was seen,
    /// unless it is <see cref="WaitAbortedException"/>, which ends the wait at once (a node died, say).</param>
    public static async Task UntilAsync(
        string condition,
        Func<CancellationToken, Task<WaitState>> check,
        TimeSpan timeout,
        CancellationToken ct = default,
        TimeSpan? interval = null
    )
    {
        var started = DateTime.UtcNow;
        var deadline = started + timeout;
        var observed = "nothing yet";
        while (true)
        {
            ct.ThrowIfCancellationRequested();
            try
            {
                var state = await check(ct);
                if (state.Done)
                {
                    return;
                }
                observed = state.Observed;
            }
            catch (Exception e) when (e is not OperationCanceledException and not WaitAbortedException)
            {
                observed = e.Message;
            }
            if (DateTime.UtcNow >= deadline)
            {
                throw new WaitTimeoutException(condition, timeout, observed);
            }
            await Task.Delay(interval ?? (DateTime.UtcNow - started < FastFor ? FastInterval : SlowInterval), ct);
        }
    }
}
