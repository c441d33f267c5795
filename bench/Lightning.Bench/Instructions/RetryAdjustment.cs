using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Instructions;

/// <summary>
/// What a window's counts would have been had every retry loop of the node's kind run its mean number of times: per
/// process, (mean calls − calls made) × the callee's instructions per call, from callgrind's call counts. A control
/// variate with a known mean: it removes the loop's chance, not a change in what a call costs, nor in how often the
/// loop itself runs.
/// </summary>
internal static class RetryAdjustment
{
    /// <summary>Instructions to add per process name (negative when the loops ran more often than their mean).</summary>
    public static IReadOnlyDictionary<string, double> Of(
        IEnumerable<CallgrindDump> dumps,
        IReadOnlyList<RetryLoop> loops
    )
    {
        var adjustment = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var dump in dumps)
        {
            string? Name(string key) => dump.Functions.TryGetValue(key, out var function) ? function.Name : null;
            foreach (var loop in loops)
            {
                var attempts = dump
                    .Calls.Where(c => Name(c.Caller) == loop.Caller && Name(c.Callee) == loop.Callee)
                    .ToList();
                var made = attempts.Sum(c => c.Calls);
                if (made == 0)
                {
                    continue;
                }
                var loopsRun = dump
                    .Calls.Where(c => Name(c.Callee) == loop.Caller && Name(c.Caller) != loop.Caller)
                    .Sum(c => c.Calls);
                var perCall = attempts.Sum(c => c.InclusiveIr) / (double)made;
                adjustment[dump.ProcessName] =
                    adjustment.GetValueOrDefault(dump.ProcessName)
                    + perCall * (loop.MeanCallsPerCall * loopsRun - made);
            }
        }
        return adjustment;
    }
}
