namespace Lightning.Bench.Reports;

/// <summary>An output that takes a case's spans one at a time, in the one pass that reads them (a case's spans are never all in memory).</summary>
public interface ISpanOutput : IRunOutput
{
    ISpanWriter Open(string runDirectory, string caseKey);
}
