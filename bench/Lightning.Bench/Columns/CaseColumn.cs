using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Columns;

/// <summary>
/// A column of the harness in BenchmarkDotNet's table: it shows what the results model already holds for the case,
/// and computes nothing itself.
/// </summary>
internal abstract class CaseColumn(RunResults results) : IColumn
{
    protected RunResults Results { get; } = results;

    public string Id => $"lnbench.{ColumnName}";

    public abstract string ColumnName { get; }

    public abstract string Legend { get; }

    public virtual bool IsNumeric => true;

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public UnitType UnitType => UnitType.Dimensionless;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) =>
        Value(CaseKey.Of(benchmarkCase), benchmarkCase);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        GetValue(summary, benchmarkCase);

    public virtual bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public override string ToString() => ColumnName;

    protected abstract string Value(string caseKey, BenchmarkCase benchmarkCase);

    /// <summary>A figure of the case, or "-" while it has none.</summary>
    protected string Figure(string caseKey, Func<CaseFigures, double> value, string format) =>
        Results.Find(caseKey)?.Figures is { } figures ? Format(value(figures), format) : "-";

    protected static string Format(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
