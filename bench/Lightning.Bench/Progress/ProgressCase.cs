namespace Lightning.Bench.Progress;

/// <summary>
/// A case as the progress display counts it: its key, its cell (what its arms share, e.g. "Concurrency=4") and its
/// topology index; the cases of one cell and topology index are a pair of a comparison.
/// </summary>
internal readonly record struct ProgressCase(string Key, string Cell, int Topology);
