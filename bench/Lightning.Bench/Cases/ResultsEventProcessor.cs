using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cases;

/// <summary>
/// The moment BenchmarkDotNet finishes a case (its topology already torn down), the case's figures are computed once
/// in the results model, from BenchmarkDotNet's statistics of the measured iterations.
/// </summary>
internal sealed class ResultsEventProcessor(RunResults results) : EventProcessor
{
    public override void OnEndRunBenchmark(BenchmarkCase benchmarkCase, BenchmarkReport report)
    {
        var statistics = report.ResultStatistics;
        results
            .Find(CaseKey.Of(benchmarkCase))
            ?.Finish(statistics?.Mean, statistics?.StandardDeviation, statistics?.OriginalValues);
    }
}
