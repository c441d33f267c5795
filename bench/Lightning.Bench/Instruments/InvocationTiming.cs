using Lightning.Bench.Results;

namespace Lightning.Bench.Instruments;

/// <summary>
/// Each invocation's time as the harness measured it around the workload (BenchmarkDotNet measures the same span; with
/// alternating arms every arm's figures come from these), recorded once its operations all ended.
/// </summary>
internal sealed class InvocationTiming(CaseResults results) : CaseInstrument
{
    public override Task AfterInvocationAsync(Invocation invocation, CancellationToken ct)
    {
        if (invocation.Elapsed is { } elapsed)
        {
            results.CompleteInvocation(invocation.Number, elapsed);
        }
        return Task.CompletedTask;
    }
}
