namespace Lightning.Bench.Progress;

/// <summary>
/// How a run's progress is shown: its timed lines (<see cref="RunProgress.Info"/>) and, while started, its
/// <see cref="ProgressModel"/>. Plain lines (<see cref="PlainProgressRenderer"/>) where nobody watches a terminal; a live
/// display (<see cref="SpectreProgressRenderer"/>) where somebody does.
/// </summary>
internal interface IProgressRenderer
{
    /// <summary>A finished progress line, "// lnbench [  12.3 s] …"; may come from any thread.</summary>
    void Line(string line);

    /// <summary>From now on the model is shown (a live display takes the terminal); called once the run folder exists.</summary>
    void Start(ProgressModel model, string? logPath);

    /// <summary>
    /// The display ends, its last frame left on the screen; lines after it are printed as plain ones. Idempotent and
    /// callable from any thread (a signal's handler stops it before the teardown speaks).
    /// </summary>
    void Stop();

    /// <summary>Whether the terminal shows a live display rather than BenchmarkDotNet's log (which then goes to the run's log only).</summary>
    bool IsLive { get; }
}
