using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Columns;

/// <summary>
/// BenchmarkDotNet's Method column, named by what an operation of the case's workload calls on its build (Core
/// Lightning's payment: invoice+xpay): the calls belong to the workload and the node kind, not to the scenario's [Benchmark] method. It stands where BenchmarkDotNet's own
/// Method column would, as that one does (first of the job columns, no legend).
/// </summary>
internal sealed class PaymentMethodColumn(
    HarnessOptions options,
    NodeKindCatalog kinds,
    Results.RunResults? results = null
) : IColumn
{
    public string Id => $"lnbench.{ColumnName}";

    public string ColumnName => Column.Method;

    public string Legend => "";

    public bool IsNumeric => false;

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Job;

    public int PriorityInCategory => 0;

    public UnitType UnitType => UnitType.Dimensionless;

    /// <summary>What one operation of <paramref name="workload"/> calls on a build's kinds ("invoice+xpay"; a build of several kinds names each).</summary>
    public static string Of(BuildSpec build, NodeKindCatalog kinds, Workloads.IWorkloadKind? workload = null) =>
        string.Join(
            ", ",
            kinds.PaymentCallsOf([build]).Select(c => (workload ?? Workloads.WorkloadCatalog.Default).MethodOf(c))
        );

    /// <summary>What the case's payer called, as it ran (a release may call another payment command), else what its build's kinds call.</summary>
    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) =>
        results?.Find(CaseKey.Of(benchmarkCase))?.Method
        ?? (
            benchmarkCase.Parameters[nameof(ScenarioBenchmark.Build)] is BuildName build
            && build.Index < options.Builds.Count
                ? Of(
                    options.Builds[build.Index],
                    kinds,
                    benchmarkCase.Parameters[nameof(ScenarioBenchmark.Workload)] is WorkloadName workload
                        ? Workloads.WorkloadCatalog.Find(workload.Name)
                        : null
                )
                : benchmarkCase.Descriptor.WorkloadMethodDisplayInfo
        );

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        GetValue(summary, benchmarkCase);

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public override string ToString() => ColumnName;
}
