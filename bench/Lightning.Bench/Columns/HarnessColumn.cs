using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace Lightning.Bench.Columns;

/// <summary>A thin BenchmarkDotNet column over a function; the figures themselves come from plain classes.</summary>
public sealed class HarnessColumn(
    string name,
    string legend,
    Func<Summary, BenchmarkCase, string> value,
    Func<Summary, bool>? available = null,
    bool numeric = true) : IColumn
{
    public string Id => $"lnbench.{name}";

    public string ColumnName => name;

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => numeric;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => legend;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => value(summary, benchmarkCase);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => value(summary, benchmarkCase);

    public bool IsAvailable(Summary summary) => available?.Invoke(summary) ?? true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public override string ToString() => ColumnName;
}
