using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// summary.json: every case's figures with units in the names, the comparisons and spreads; written when every case ran,
/// and when a signal stopped the run, for the cases it had, saying what stopped it (no comparisons then).
/// </summary>
internal sealed class SummaryJson : IRunEndOutput
{
    public IReadOnlyList<string> Files => [RunSummary.FileName];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        if (context.Completed || context.InterruptedBy is not null)
        {
            (SummaryOf(context) with { Interrupted = context.InterruptedBy }).Write(context.ResultsDirectory);
        }
        return Task.CompletedTask;
    }

    private static RunSummary SummaryOf(RunOutputContext run) =>
        new(
            run.RunId,
            run.Scenario.Name,
            run.InvoiceMode,
            run.Results.Cases.Select(Of).ToList(),
            run.Results.Comparisons?.Comparisons,
            run.Results.Comparisons?.Spreads,
            run.Results.Comparisons?.ThresholdPercent
        )
        {
            Conditions = run.Conditions,
            MachineLoad = run.MachineLoad,
        };

    /// <summary>One case's figures as summary.json has them.</summary>
    internal static CaseSummary Of(CaseResults c) =>
        new(
            c.CaseKey,
            c.Parameters,
            c.Figures?.MeanMs ?? double.NaN,
            c.Figures?.StdDevMs ?? double.NaN,
            c.Figures is { } f && (f.FromBenchmarkDotNet || c.TimedByHarness) ? f.IterationsMs : [],
            c.PaymentsPerInvocation,
            c.Figures?.PaymentsPerSecond ?? double.NaN,
            c.Figures?.P50Ms ?? double.NaN,
            c.Figures?.P95Ms ?? double.NaN,
            c.Figures?.AsExpected ?? 0,
            c.Figures?.Errors ?? 0,
            c.Figures?.FromBenchmarkDotNet ?? false,
            c.Figures?.Cpu?.Ms ?? double.NaN,
            c.Figures?.Cpu?.Iterations,
            c.Figures?.Cpu?.ByNode.ToDictionary(
                n => n.Key,
                n => CpuPerPayment.IsWithinIdleNoise(n.Value) ? null : (double?)n.Value
            ),
            c.Figures?.Cpu?.WithIdleMs ?? double.NaN,
            c.Topology?.Setup,
            c.Figures?.Costs?.WrittenKb ?? double.NaN,
            c.Figures?.Costs?.WrittenKbIterations,
            c.Figures?.Costs?.WrittenKbByNode,
            c.Figures?.Costs?.PeakMbByNode,
            c.Figures?.Costs?.EndRssMbByNode,
            c.Figures?.Instructions,
            c.Instructions,
            c.Instructions is null ? null : InstructionSettle.Of(c.SettleWaits),
            HarnessGc.Of(c.GcInInvocations),
            InstructionSettle.Of(c.InvocationSettleWaits),
            c.Noun,
            c.Figures?.PartsPerOperation,
            c.Figures?.FailedPartsPerOperation,
            c.Figures?.Probe?.WorstIterationsMs,
            c.Figures?.Probe?.ByNode,
            c.Figures?.Cpu?.WithinIdleNoise is { Count: > 0 } idle ? idle : null,
            c.StoppedBy,
            c.Figures?.RoutesByAmount
        );
}
