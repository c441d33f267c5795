using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cases;

/// <summary>
/// Tells the progress model what BenchmarkDotNet runs: the cases it was given (a budgeted run's round adds its own),
/// and each case's start and end with its mean time. BenchmarkDotNet calls these on its own thread, in running order.
/// </summary>
internal sealed class ProgressEventProcessor(ProgressModel model) : EventProcessor
{
    public override void OnStartRunBenchmarksInType(Type type, IReadOnlyList<BenchmarkCase> benchmarks) =>
        model.Declare(
            benchmarks.Select(c =>
            {
                var id = CaseKey.IdOf(c);
                return new ProgressCase(CaseKey.Of(c), id.Cell.Label, id.Topology);
            })
        );

    public override void OnStartRunBenchmark(BenchmarkCase benchmarkCase) =>
        model.CaseStarted(CaseKey.Of(benchmarkCase));

    public override void OnEndRunBenchmark(BenchmarkCase benchmarkCase, BenchmarkReport report) =>
        model.CaseEnded(
            CaseKey.Of(benchmarkCase),
            report.Success,
            report.ResultStatistics?.Mean is { } nanoseconds ? TimeSpan.FromTicks((long)(nanoseconds / 100)) : null
        );
}
