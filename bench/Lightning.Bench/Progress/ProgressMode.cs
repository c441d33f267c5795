namespace Lightning.Bench.Progress;

/// <summary>How the console shows a run (see <see cref="ProgressModeChoice"/>).</summary>
internal enum ProgressMode
{
    /// <summary>Today's log: the progress lines and BenchmarkDotNet's log, scrolling.</summary>
    Plain,

    /// <summary>A live display of the run's progress; BenchmarkDotNet's log goes to the run folder only.</summary>
    Live,
}
