using Lightning.Bench.Tracing;

namespace Lightning.Bench.Reports;

/// <summary>An output that takes a case's spans one at a time, in the one pass that reads them (a case's spans are never all in memory).</summary>
internal interface ISpanOutput : IRunOutput
{
    /// <param name="join">How the case's spans are named and joined to payments (each node by its own kind).</param>
    ISpanWriter Open(string runDirectory, string caseKey, ITraceJoin join);
}
