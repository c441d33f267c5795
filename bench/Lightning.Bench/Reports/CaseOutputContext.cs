using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>What a case's outputs are written from: its results and, when its spans were collected, what they say.</summary>
/// <param name="RunDirectory">The run's folder, where run-wide tables are appended case by case.</param>
/// <param name="Spans">Null without traces, and for a case cut off by a signal (its spans are not read).</param>
internal sealed record CaseOutputContext(string RunId, string RunDirectory, CaseResults Results, CaseSpans? Spans);
