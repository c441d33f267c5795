namespace Lightning.Bench.Reports;

/// <summary>An output written as each case ends (appended case by case, or in the case's folder), and for a case cut off by a signal.</summary>
internal interface ICaseOutput : IRunOutput
{
    void Write(CaseOutputContext context);
}
