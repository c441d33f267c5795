using System.Collections.Immutable;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Cases;

/// <summary>BenchmarkDotNet's orderer: runs cases in the <see cref="ExecutionPlan"/>'s order, shows them in declared order (builds as given, then parameters).</summary>
internal sealed class InterleavedOrderer(ExecutionPlan plan) : IOrderer
{
    private readonly IOrderer declared = new DefaultOrderer(SummaryOrderPolicy.Declared, MethodOrderPolicy.Declared);

    public bool SeparateLogicalGroups => declared.SeparateLogicalGroups;

    public IEnumerable<BenchmarkCase> GetExecutionOrder(
        ImmutableArray<BenchmarkCase> benchmarksCase,
        IEnumerable<BenchmarkLogicalGroupRule>? order = null
    ) => plan.Arrange(declared.GetExecutionOrder(benchmarksCase, order).ToList(), CaseKey.TextsOf, CaseKey.Of);

    public IEnumerable<BenchmarkCase> GetSummaryOrder(ImmutableArray<BenchmarkCase> benchmarksCases, Summary summary) =>
        declared.GetExecutionOrder(benchmarksCases);

    public string? GetHighlightGroupKey(BenchmarkCase benchmarkCase) => declared.GetHighlightGroupKey(benchmarkCase);

    public string GetLogicalGroupKey(ImmutableArray<BenchmarkCase> allBenchmarksCases, BenchmarkCase benchmarkCase) =>
        declared.GetLogicalGroupKey(allBenchmarksCases, benchmarkCase) ?? "";

    public IEnumerable<IGrouping<string, BenchmarkCase>> GetLogicalGroupOrder(
        IEnumerable<IGrouping<string, BenchmarkCase>> logicalGroups,
        IEnumerable<BenchmarkLogicalGroupRule>? order = null
    ) => declared.GetLogicalGroupOrder(logicalGroups, order);
}
