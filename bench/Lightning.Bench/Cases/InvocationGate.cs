using Lightning.Bench.Instruments;

namespace Lightning.Bench.Cases;

/// <summary>
/// A wait before each invocation, outside its timing, among the instruments so it falls in their order: the wait for
/// the nodes to fall quiet (<see cref="TimedSettle"/>), or another program's turn (<see cref="TurnSocket"/>).
/// </summary>
internal sealed class InvocationGate(Func<Invocation, CancellationToken, Task> wait) : CaseInstrument
{
    public override Task BeforeInvocationAsync(Invocation invocation, CancellationToken ct) => wait(invocation, ct);
}
