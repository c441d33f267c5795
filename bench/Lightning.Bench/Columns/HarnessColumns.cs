using BenchmarkDotNet.Columns;
using Lightning.Bench.Options;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

/// <summary>The columns the harness adds to BenchmarkDotNet's table, in the order they show.</summary>
internal static class HarnessColumns
{
    public static IReadOnlyList<IColumn> For(RunResults results, HarnessOptions options)
    {
        var builds = options.Builds.Select(b => b.Name).ToList();
        IColumn[] instructions = options.Instructions ? [new InstructionsPerPaymentColumn(results)] : [];
        return
        [
            .. instructions,
            new PaymentsPerSecondColumn(results),
            new LatencyPercentileColumn(results, 50),
            new LatencyPercentileColumn(results, 95),
            new CpuPerPaymentColumn(results),
            new StoragePerPaymentColumn(results),
            new PeakMemoryColumn(results),
            new FailedColumn(results),
            new StatusColumn(results),
            new InvoicesColumn(results, options.PregenerateInvoices),
            new RatioColumn(results, builds),
            new VersusTracesOffColumn(results, options.Traces),
        ];
    }
}
