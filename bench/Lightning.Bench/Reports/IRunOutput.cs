namespace Lightning.Bench.Reports;

/// <summary>
/// One output of a run, in the manner of BenchmarkDotNet's exporters: the files it writes, named once, and a writer
/// over the results model (<see cref="ICaseOutput"/>, <see cref="ISpanOutput"/>, <see cref="IRunEndOutput"/>). Every
/// output is listed in <see cref="RunOutputs"/>.
/// </summary>
internal interface IRunOutput
{
    /// <summary>The files it writes, relative to the run folder; CASE stands for a case's folder, NODE for a node, BUILD for a build.</summary>
    IReadOnlyList<string> Files { get; }
}
