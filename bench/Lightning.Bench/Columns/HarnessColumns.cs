using BenchmarkDotNet.Columns;
using Lightning.Bench.Options;
using Lightning.Bench.Results;

namespace Lightning.Bench.Columns;

/// <summary>The columns the harness adds to BenchmarkDotNet's table, in the order they show.</summary>
internal static class HarnessColumns
{
    public static IReadOnlyList<IColumn> For(RunResults results, HarnessOptions options, OperationNoun noun)
    {
        var builds = options.Builds.Select(b => b.Name).ToList();
        if (options.Instructions)
        {
            // Times under Valgrind are not comparable with any other run's: an instruction run's table shows none.
            return
            [
                new InstructionsPerPaymentColumn(results, noun),
                new FailedColumn(results, noun),
                new StatusColumn(results),
                new InvoicesColumn(results, options.PregenerateInvoices),
            ];
        }
        var splits = options.Workloads.Any(w => Workloads.WorkloadCatalog.Find(w)?.SplitsPayments == true);
        IColumn[] parts = splits ? [new PartsColumn(results)] : [];
        return
        [
            .. parts,
            new PaymentsPerSecondColumn(results, noun),
            new LatencyPercentileColumn(results, 50),
            new LatencyPercentileColumn(results, 95),
            new CpuPerPaymentColumn(results, noun),
            new StoragePerPaymentColumn(results, noun),
            new PeakMemoryColumn(results),
            new FailedColumn(results, noun),
            new StatusColumn(results),
            new InvoicesColumn(results, options.PregenerateInvoices),
            new RatioColumn(results, builds),
            new VersusTracesOffColumn(results, options.Traces),
        ];
    }
}
