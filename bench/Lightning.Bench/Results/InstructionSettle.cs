namespace Lightning.Bench.Results;

/// <summary>
/// With --instructions: how long the harness waited, before each measured invocation and before the window closed, for
/// the nodes to fall quiet (the last payment's commitments settled), so no payment's work is folded into the next's
/// or cut off by the window's ends.
/// </summary>
/// <param name="Waits">How many waits the window had (its invocations and its close).</param>
/// <param name="MeanMs">A wait's mean length.</param>
/// <param name="MaxMs">The longest wait.</param>
/// <param name="TimedOut">Waits that ended at the limit with the nodes still busy (then the payment went ahead).</param>
internal sealed record InstructionSettle(int Waits, double MeanMs, double MaxMs, int TimedOut)
{
    public static InstructionSettle? Of(IReadOnlyList<(TimeSpan Waited, bool Quiet)> waits) =>
        waits.Count == 0
            ? null
            : new InstructionSettle(
                waits.Count,
                Math.Round(waits.Average(w => w.Waited.TotalMilliseconds), 1),
                Math.Round(waits.Max(w => w.Waited.TotalMilliseconds), 1),
                waits.Count(w => !w.Quiet)
            );
}
