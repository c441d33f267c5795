using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>Tables printed after BenchmarkDotNet's own, once the cases are done (BenchmarkDotNet's exporters' ExportToLog).</summary>
internal interface IConsoleOutput
{
    void Print(RunResults results, TextWriter console);
}
